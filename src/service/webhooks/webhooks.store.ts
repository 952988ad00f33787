/** SQL of webhooks and their deliveries, and how the API shows them. */
import type { Db } from '../db/database';

export const WEBHOOK_EVENTS = ['execution.completed', 'execution.failed', 'execution.cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

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

export interface AttemptRecord {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A webhook of `userId`, or undefined (someone else's webhook is invisible). */
export function webhookOf(db: Db, userId: number, id: number): WebhookRow | undefined {
  return db.prepare('SELECT * FROM webhooks WHERE id = ? AND user_id = ?').get(id, userId) as WebhookRow | undefined;
}

export function webhookById(db: Db, id: number): WebhookRow | undefined {
  return db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

export function deliveryById(db: Db, id: number): DeliveryRow | undefined {
  return db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

/** A webhook as the API shows it; the secret only once, in the answer to its creation. */
export function presentWebhook(row: WebhookRow, withSecret = false) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    active: row.active === 1,
    created: row.created,
    ...(withSecret ? { secret: row.secret } : {}),
  };
}

/** A delivery as the API shows it. */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    attempt_log: JSON.parse(row.attempt_log) as AttemptRecord[],
    next_attempt_at: row.next_attempt_at,
    created: row.created,
    finished: row.finished,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}
