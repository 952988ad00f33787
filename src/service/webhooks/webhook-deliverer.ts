/**
 * Sends webhook deliveries: a signed POST of the stored payload, retried with exponential
 * backoff (LANEWAY_WEBHOOK_RETRY_MS, then twice that, and so on) until a 2xx answer or
 * MAX_ATTEMPTS. Every attempt is written to the delivery log before the next is scheduled, so
 * a restart picks up pending deliveries where they were. Shutdown aborts requests in flight;
 * an attempt cut short by shutdown is not counted.
 */
import { fetch as undiciFetch } from 'undici';
import type { ServiceContext } from '../context';
import { readSettings } from '../settings/settings.store';
import { recipientMayReceive } from './webhook-recipient';
import { signBody, SIGNATURE_HEADER } from './webhook-signature';
import { checkLiteralHost, policyAgent, targetPolicy, TargetRefused } from './webhook-target-policy';
import {
  deliveryById,
  finishDelivery,
  pendingDeliveries,
  scheduleRetry,
  webhookById,
  type AttemptRecord,
  type DeliveryRow,
} from './webhooks.store';

export const MAX_ATTEMPTS = 6;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_ERROR = 300;

/** The delay before retry number `failed` (1 after the first failure): base, 2 base, 4 base... */
export function backoffMs(base: number, failed: number): number {
  return base * 2 ** (failed - 1);
}

export class WebhookDeliverer {
  private timers = new Map<number, NodeJS.Timeout>();
  private inFlight = new Map<number, Promise<void>>();
  private shutdown = new AbortController();
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly baseDelayMs = Number(process.env.LANEWAY_WEBHOOK_RETRY_MS) || 10_000,
  ) {}

  /** Schedules every pending delivery (at start: those a previous run left). */
  resumePending(): void {
    for (const r of pendingDeliveries(this.ctx.db))
      this.schedule(r.id, r.next_attempt_at ? Date.parse(r.next_attempt_at) - this.ctx.clock.now() : 0);
  }

  /** Sends a new delivery now. */
  deliver(deliveryId: number): void {
    this.schedule(deliveryId, 0);
  }

  private schedule(id: number, delayMs: number): void {
    if (this.closed || this.timers.has(id) || this.inFlight.has(id)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        const p = this.attempt(id).then(
          (retryIn) => {
            this.inFlight.delete(id);
            if (retryIn !== null) this.schedule(id, retryIn);
          },
          (err: unknown) => {
            this.inFlight.delete(id);
            this.ctx.log(`INTERNAL webhook delivery ${id}: ${(err as Error).stack ?? String(err)}`);
          },
        );
        this.inFlight.set(id, p);
      },
      Math.max(0, delayMs),
    );
    this.timers.set(id, timer);
  }

  /** One attempt; resolves with the delay before the next one, or null when there is none. */
  private async attempt(id: number): Promise<number | null> {
    const delivery = deliveryById(this.ctx.db, id);
    if (!delivery || delivery.status !== 'pending') return null;
    const hook = webhookById(this.ctx.db, delivery.webhook_id);
    if (!hook) return null;
    const started = this.ctx.clock.now();
    const at = new Date(started).toISOString();
    let statusCode: number | null = null;
    let error: string | null = null;
    // Payloads go only to people who still have access (not disabled, may still view the run).
    if (!recipientMayReceive(this.ctx, hook.user_id, delivery.payload)) {
      this.ctx.log(`webhook delivery ${id}: not sent, its owner no longer has access to the execution`);
      return this.record(delivery, { at, status_code: null, error: 'failed', duration_ms: 0 }, true);
    }
    const signal = AbortSignal.any([this.shutdown.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
    const policy = targetPolicy(readSettings(this.ctx.db).webhook_allow_list);
    const agent = policyAgent(policy);
    // The delivery id and the time of this attempt go inside the signed body: a receiver
    // refuses a timestamp older than the replay window and an id it has already seen.
    const timestamp = Math.floor(started / 1000);
    const body = JSON.stringify({
      ...(JSON.parse(delivery.payload) as Record<string, unknown>),
      delivery_id: delivery.id,
      timestamp,
    });
    try {
      checkLiteralHost(policy, new URL(hook.url));
      const res = await undiciFetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Laneway-Webhook',
          'x-laneway-event': delivery.event,
          'x-laneway-delivery': String(delivery.id),
          'x-laneway-timestamp': String(timestamp),
          [SIGNATURE_HEADER]: signBody(hook.secret, body),
        },
        body,
        // A redirect is an answer the receiver must fix, not one to follow with a signed body.
        redirect: 'manual',
        signal,
        dispatcher: agent,
      });
      statusCode = res.status;
      await res.body?.cancel().catch(() => {});
      if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
    } catch (err) {
      if (this.shutdown.signal.aborted) return null;
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const refused = e instanceof TargetRefused || e.cause instanceof TargetRefused;
      error = refused
        ? `refused by the webhook target policy: ${(e instanceof TargetRefused ? e : (e.cause as Error)).message}`
        : e.name === 'TimeoutError'
          ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
          : (e.cause?.code ?? e.cause?.message ?? e.message);
    } finally {
      void agent.close().catch(() => {});
    }
    // The owner's log says delivered or "failed", nothing more: status codes, network errors and
    // timings once told a closed port from a live service. The detail goes to the service log.
    if (error !== null) this.ctx.log(`webhook delivery ${id} to hook ${hook.id}: ${error.slice(0, MAX_ERROR)}`);
    return this.record(delivery, {
      at,
      status_code: error === null ? statusCode : null,
      error: error === null ? null : 'failed',
      duration_ms: 0,
    });
  }

  /** Writes an attempt to the log; returns the delay before the next one, or null when done. */
  private record(delivery: DeliveryRow, attempt: AttemptRecord, final = false): number | null {
    const attempts = delivery.attempts + 1;
    const log = [...(JSON.parse(delivery.attempt_log) as AttemptRecord[]), attempt];
    const now = new Date(this.ctx.clock.now()).toISOString();
    if (attempt.error === null || attempts >= MAX_ATTEMPTS || final) {
      finishDelivery(this.ctx.db, delivery.id, {
        status: attempt.error === null ? 'delivered' : 'failed',
        attempts,
        attemptLog: JSON.stringify(log),
        finished: now,
      });
      return null;
    }
    const delay = backoffMs(this.baseDelayMs, attempts);
    scheduleRetry(this.ctx.db, delivery.id, {
      attempts,
      attemptLog: JSON.stringify(log),
      nextAttemptAt: new Date(this.ctx.clock.now() + delay).toISOString(),
    });
    return delay;
  }

  /** Resolves when nothing is in flight or scheduled (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size || this.timers.size) {
      await Promise.allSettled([...this.inFlight.values()]);
      if (this.timers.size) await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Stops: scheduled retries stay pending in the database for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight.values()]);
  }
}
