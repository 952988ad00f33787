/**
 * The notification outbox: what the app shows at GET /api/notifications. Every notification
 * is also mailed when SMTP is configured; its mail_status says how that went.
 */
import type { ServiceContext } from '../context';
import { sendMailInBackground } from '../mail/mailer';

export interface NotificationRow {
  id: number;
  user_id: number | null;
  email: string;
  kind: string;
  subject: string;
  body: string;
  data: string;
  mail_status: string;
  created: string;
  read: string | null;
}

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
  const created = new Date(ctx.clock.now()).toISOString();
  const result = ctx.db
    .prepare(
      `INSERT INTO notifications (user_id, email, kind, subject, body, data, mail_status, created)
       VALUES (?, ?, ?, ?, ?, ?, 'not_configured', ?)`,
    )
    .run(n.userId, n.email, n.kind, n.subject, n.body, JSON.stringify(n.data), created);
  const id = Number(result.lastInsertRowid);
  if (ctx.config.smtpUrl) {
    ctx.db.prepare("UPDATE notifications SET mail_status = 'sending' WHERE id = ?").run(id);
    sendMailInBackground(ctx, { to: n.email, subject: n.subject, text: n.body }, (status) => {
      ctx.db.prepare('UPDATE notifications SET mail_status = ? WHERE id = ?').run(status, id);
    });
  }
  return id;
}

/** Hands notifications waiting for an address to the account that now has it. */
export function claimNotifications(ctx: ServiceContext, userId: number, email: string): void {
  ctx.db.prepare('UPDATE notifications SET user_id = ? WHERE user_id IS NULL AND email = ?').run(userId, email);
}

/** What the API shows of a notification. */
export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    body: row.body,
    data: JSON.parse(row.data) as Record<string, unknown>,
    mail_status: row.mail_status,
    created: row.created,
    read: row.read !== null,
  };
}
