/** Queries over webhooks and their deliveries. */
import type { DeliveriesQuery, DeliveryAttempt } from '../../shared/service-api/webhooks';
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';

export interface WebhookRow {
  id: number;
  user_id: number;
  url: string;
  description: string;
  secret: string;
  events: string;
  active: number;
  created: string;
}

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  attempt_log: string;
  next_attempt_at: string | null;
  created: string;
  finished: string | null;
}

/** One attempt as the delivery log keeps it. */
export type AttemptRecord = DeliveryAttempt;

/** A webhook of `userId`, or undefined (someone else's webhook is invisible). */
export function webhookOf(db: Db, userId: number, id: number): WebhookRow | undefined {
  return db.prepare('SELECT * FROM webhooks WHERE id = ? AND user_id = ?').get(id, userId) as WebhookRow | undefined;
}

export function webhookById(db: Db, id: number): WebhookRow | undefined {
  return db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

/** How many webhooks a user has. */
export function countWebhooksOf(db: Db, userId: number): number {
  return (db.prepare('SELECT count(*) AS n FROM webhooks WHERE user_id = ?').get(userId) as { n: number }).n;
}

/** One page of a user's webhooks, oldest first. */
export function webhooksPage(db: Db, userId: number, q: PageQuery): PageOf<WebhookRow> {
  return selectPage<WebhookRow>(
    db,
    { from: 'webhooks', where: { sql: 'user_id = ?', params: [userId] }, orderBy: 'id' },
    q,
  );
}

/** A user's active webhooks, oldest first. */
export function activeWebhooksOf(db: Db, userId: number): WebhookRow[] {
  return db.prepare('SELECT * FROM webhooks WHERE user_id = ? AND active = 1 ORDER BY id').all(userId) as WebhookRow[];
}

/** Inserts a webhook; returns its id. */
export function insertWebhook(db: Db, row: Omit<WebhookRow, 'id'>): number {
  return Number(
    db
      .prepare(
        'INSERT INTO webhooks (user_id, url, description, secret, events, active, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(row.user_id, row.url, row.description, row.secret, row.events, row.active, row.created).lastInsertRowid,
  );
}

/** Writes a webhook's changeable columns. */
export function updateWebhookRow(
  db: Db,
  id: number,
  next: Pick<WebhookRow, 'url' | 'description' | 'events' | 'active'>,
): void {
  db.prepare('UPDATE webhooks SET url = ?, description = ?, events = ?, active = ? WHERE id = ?').run(
    next.url,
    next.description,
    next.events,
    next.active,
    id,
  );
}

/** Deletes a webhook (its deliveries go by foreign key). */
export function deleteWebhookRow(db: Db, id: number): void {
  db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);
}

export function deliveryById(db: Db, id: number): DeliveryRow | undefined {
  return db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

/** One page of a webhook's deliveries (of one status when asked), newest first. */
export function deliveriesPage(db: Db, webhookId: number, q: DeliveriesQuery): PageOf<DeliveryRow> {
  const where = q.status
    ? { sql: 'webhook_id = ? AND status = ?', params: [webhookId, q.status] }
    : { sql: 'webhook_id = ?', params: [webhookId] };
  return selectPage<DeliveryRow>(db, { from: 'webhook_deliveries', where, orderBy: 'id DESC' }, q);
}

/** Queues one pending delivery of `payload` per webhook, in one transaction; returns their ids. */
export function insertDeliveries(db: Db, webhookIds: number[], event: string, payload: string, created: string) {
  const insert = db.prepare(
    "INSERT INTO webhook_deliveries (webhook_id, event, payload, status, created) VALUES (?, ?, ?, 'pending', ?)",
  );
  return db.transaction(() =>
    webhookIds.map((id) => Number(insert.run(id, event, payload, created).lastInsertRowid)),
  )();
}

/** Every pending delivery and when its next attempt is due (null: now). */
export function pendingDeliveries(db: Db): Array<{ id: number; next_attempt_at: string | null }> {
  return db
    .prepare("SELECT id, next_attempt_at FROM webhook_deliveries WHERE status = 'pending' ORDER BY id")
    .all() as Array<{ id: number; next_attempt_at: string | null }>;
}

/** Records the last attempt of a delivery: delivered or failed for good. */
export function finishDelivery(
  db: Db,
  id: number,
  outcome: { status: 'delivered' | 'failed'; attempts: number; attemptLog: string; finished: string },
): void {
  db.prepare(
    'UPDATE webhook_deliveries SET status = ?, attempts = ?, attempt_log = ?, next_attempt_at = NULL, finished = ? WHERE id = ?',
  ).run(outcome.status, outcome.attempts, outcome.attemptLog, outcome.finished, id);
}

/** Records a failed attempt and when the next one is due. */
export function scheduleRetry(
  db: Db,
  id: number,
  retry: { attempts: number; attemptLog: string; nextAttemptAt: string },
): void {
  db.prepare('UPDATE webhook_deliveries SET attempts = ?, attempt_log = ?, next_attempt_at = ? WHERE id = ?').run(
    retry.attempts,
    retry.attemptLog,
    retry.nextAttemptAt,
    id,
  );
}
