/** /api/webhooks: the caller's webhooks for the ends of their executions, and each one's delivery log. */
import { Type, type Static } from 'typebox';
import { Page, PageQueryProperties } from './page';
import { JsonObject, NullableInteger, NullableString, StringEnum } from './resource';

/** The events a webhook can receive. */
export const WEBHOOK_EVENTS = ['execution.completed', 'execution.failed', 'execution.cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Where a delivery stands. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryStatus = StringEnum(DELIVERY_STATUSES);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

/** A webhook; its signing secret only in the answer to its creation. */
export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  created: Type.String(),
  secret: Type.Optional(Type.String({ description: 'Only in the answer to the creation' })),
});
export type Webhook = Static<typeof Webhook>;

export const WebhookPage = Page(Webhook);
export type WebhookPage = Static<typeof WebhookPage>;

const WebhookFields = {
  url: Type.String({ minLength: 1, maxLength: 2000, description: 'http or https URL that receives POSTs' }),
  description: Type.String({ maxLength: 500 }),
  events: Type.Array(StringEnum(WEBHOOK_EVENTS), {
    minItems: 1,
    uniqueItems: true,
    description: 'Events to send (default: all)',
  }),
  active: Type.Boolean(),
};

/** POST /api/webhooks. */
export const NewWebhookBody = Type.Object(
  {
    url: WebhookFields.url,
    description: Type.Optional(WebhookFields.description),
    events: Type.Optional(WebhookFields.events),
    active: Type.Optional(WebhookFields.active),
    secret: Type.Optional(
      Type.String({ minLength: 16, maxLength: 200, description: 'Your own secret (default: random)' }),
    ),
  },
  { additionalProperties: false },
);
export type NewWebhookBody = Static<typeof NewWebhookBody>;

/** PATCH /api/webhooks/{id}: change the URL, description, events, or pause it. */
export const WebhookChangesBody = Type.Object(
  {
    url: Type.Optional(WebhookFields.url),
    description: Type.Optional(WebhookFields.description),
    events: Type.Optional(WebhookFields.events),
    active: Type.Optional(WebhookFields.active),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookChangesBody = Static<typeof WebhookChangesBody>;

/** One attempt of a delivery. */
export const DeliveryAttempt = Type.Object({
  at: Type.String(),
  status_code: NullableInteger,
  error: NullableString,
  duration_ms: Type.Number(),
});
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

/** One event sent (or being sent) to a webhook, with every attempt. */
export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.Integer(),
  event: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  attempt_log: Type.Array(DeliveryAttempt),
  next_attempt_at: NullableString,
  created: Type.String(),
  finished: NullableString,
  payload: JsonObject(),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryPage = Page(WebhookDelivery);
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;

/** GET /api/webhooks/{id}/deliveries: a page, and a status to list only those. */
export const DeliveriesQuery = Type.Object(
  { ...PageQueryProperties, status: Type.Optional(DeliveryStatus) },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;
