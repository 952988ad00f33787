/** Queries over the notification outbox. */
import type { PageOf } from '../../shared/service-api/page';
import type { NotificationsQuery } from '../../shared/service-api/notifications';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';

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

/** Inserts a notification, its mail not (yet) sent; returns its id. */
export function insertNotification(
  db: Db,
  n: Pick<NotificationRow, 'user_id' | 'email' | 'kind' | 'subject' | 'body' | 'data' | 'created'>,
): number {
  const result = db
    .prepare(
      `INSERT INTO notifications (user_id, email, kind, subject, body, data, mail_status, created)
       VALUES (?, ?, ?, ?, ?, ?, 'not_configured', ?)`,
    )
    .run(n.user_id, n.email, n.kind, n.subject, n.body, n.data, n.created);
  return Number(result.lastInsertRowid);
}

/** Records how mailing a notification went. */
export function setMailStatus(db: Db, id: number, status: string): void {
  db.prepare('UPDATE notifications SET mail_status = ? WHERE id = ?').run(status, id);
}

/** Hands notifications waiting for an address to the account that now has it. */
export function claimNotifications(db: Db, userId: number, email: string): void {
  db.prepare('UPDATE notifications SET user_id = ? WHERE user_id IS NULL AND email = ?').run(userId, email);
}

/** One page of a user's notifications (only unread ones when asked), newest first. */
export function notificationsPage(db: Db, userId: number, q: NotificationsQuery): PageOf<NotificationRow> {
  const where = { sql: `user_id = ?${q.unread ? ' AND read IS NULL' : ''}`, params: [userId] };
  return selectPage<NotificationRow>(db, { from: 'notifications', where, orderBy: 'id DESC' }, q);
}

/** How many of a user's notifications are unread. */
export function unreadCount(db: Db, userId: number): number {
  return (
    db.prepare('SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read IS NULL').get(userId) as {
      n: number;
    }
  ).n;
}

/** One notification of a user, or undefined (someone else's is invisible). */
export function notificationOf(db: Db, userId: number, id: number): NotificationRow | undefined {
  return db.prepare('SELECT * FROM notifications WHERE id = ? AND user_id = ?').get(id, userId) as
    NotificationRow | undefined;
}

/** Marks one notification read at `at` unless it already is. */
export function markRead(db: Db, id: number, at: string): void {
  db.prepare('UPDATE notifications SET read = ? WHERE id = ? AND read IS NULL').run(at, id);
}

/** Marks every unread notification of a user read; returns how many. */
export function markAllRead(db: Db, userId: number, at: string): number {
  return db.prepare('UPDATE notifications SET read = ? WHERE user_id = ? AND read IS NULL').run(at, userId).changes;
}
