/** How the API shows webhooks and their deliveries. */
import type { DeliveryAttempt, Webhook, WebhookDelivery } from '../../shared/service-api/webhooks';
import type { DeliveryRow, WebhookRow } from './webhooks.store';

/** A webhook as the API shows it; the secret only once, in the answer to its creation. */
export function presentWebhook(row: WebhookRow, withSecret = false): Webhook {
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
export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    attempt_log: JSON.parse(row.attempt_log) as DeliveryAttempt[],
    next_attempt_at: row.next_attempt_at,
    created: row.created,
    finished: row.finished,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}
