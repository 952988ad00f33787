/**
 * Outgoing e-mail over SMTP with nodemailer, when the service is configured with an SMTP URL
 * (`--smtp` or LANEWAY_SMTP_URL). Sends run in the background so that a slow or absent mail
 * server never holds an API request; shutdown waits for sends still in flight.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { ServiceContext, StoreContext } from '../context';

export type MailStatus = 'sent' | 'failed' | 'not_configured';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailState {
  transport: Transporter | null;
  inFlight: Set<Promise<unknown>>;
}

/** The mail part of the service (built once by the composition root); shutdown waits for sends. */
export function createMailState(ctx: StoreContext): MailState {
  const transport = ctx.config.smtpUrl
    ? nodemailer.createTransport(ctx.config.smtpUrl, {
        from: process.env.LANEWAY_MAIL_FROM ?? 'Laneway <laneway@localhost>',
      })
    : null;
  const state: MailState = { transport, inFlight: new Set() };
  ctx.onClose(async () => {
    await Promise.allSettled([...state.inFlight]);
    state.transport?.close();
  });
  return state;
}

function stateOf(ctx: ServiceContext): MailState {
  return ctx.parts.mail;
}

/** True when the service has an SMTP server to send through. */
export function mailConfigured(ctx: ServiceContext): boolean {
  return stateOf(ctx).transport !== null;
}

/** Sends one message now; resolves with what happened (never rejects). */
export async function sendMail(ctx: ServiceContext, message: MailMessage): Promise<MailStatus> {
  const { transport } = stateOf(ctx);
  if (!transport) return 'not_configured';
  try {
    await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    return 'sent';
  } catch (err) {
    ctx.log(`mail to ${message.to} failed: ${(err as Error).message}`);
    return 'failed';
  }
}

/** Sends in the background and reports the outcome to `done`; shutdown waits for it. */
export function sendMailInBackground(
  ctx: ServiceContext,
  message: MailMessage,
  done: (status: MailStatus) => void,
): void {
  const state = stateOf(ctx);
  const p = sendMail(ctx, message).then((status) => {
    try {
      done(status);
    } catch (err) {
      ctx.log(`mail status not recorded: ${(err as Error).message}`);
    }
  });
  state.inFlight.add(p);
  void p.finally(() => state.inFlight.delete(p));
}

/** Resolves when every background send has finished (tests and shutdown). */
export async function mailIdle(ctx: ServiceContext): Promise<void> {
  await Promise.allSettled([...stateOf(ctx).inFlight]);
}
