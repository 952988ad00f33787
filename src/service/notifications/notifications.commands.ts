/**
 * The notification outbox: what the app shows at GET /api/notifications. Every notification
 * is also mailed when SMTP is configured; its mail_status says how that went.
 */
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { sendMailInBackground } from '../mail/mailer';
import {
  insertNotification,
  markRead,
  notificationOf,
  setMailStatus,
  type NotificationRow,
} from './notifications.store';

export interface NewNotification {
  userId: number | null;
  email: string;
  kind: string;
  subject: string;
  body: string;
  data: Record<string, unknown>;
}

/** Records a notification and mails it when SMTP is configured; returns its id. */
export function notify(ctx: ServiceContext, n: NewNotification): number {
  const id = insertNotification(ctx.db, {
    user_id: n.userId,
    email: n.email,
    kind: n.kind,
    subject: n.subject,
    body: n.body,
    data: JSON.stringify(n.data),
    created: new Date(ctx.clock.now()).toISOString(),
  });
  if (ctx.config.smtpUrl) {
    setMailStatus(ctx.db, id, 'sending');
    sendMailInBackground(ctx, { to: n.email, subject: n.subject, text: n.body }, (status) => {
      setMailStatus(ctx.db, id, status);
    });
  }
  return id;
}

/** Marks one of the user's notifications read (once: the first time stays); NOT_FOUND when not theirs. */
export function readNotification(ctx: ServiceContext, userId: number, id: number): NotificationRow {
  const row = notificationOf(ctx.db, userId, id);
  if (!row) throw errors.notFound('Notification');
  if (row.read === null) markRead(ctx.db, id, new Date(ctx.clock.now()).toISOString());
  return notificationOf(ctx.db, userId, id)!;
}
