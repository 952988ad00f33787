/** The endpoints of service/webhooks/webhooks.routes.ts. */
import { op } from '../endpoint';
import { PageQuery } from '../page';
import { IdParams } from '../resource';
import {
  DeliveriesQuery,
  NewWebhookBody,
  Webhook,
  WebhookChangesBody,
  WebhookDeliveryPage,
  WebhookPage,
} from '../webhooks';

export const postWebhooks = op({
  method: 'POST',
  path: '/api/webhooks',
  operationId: 'postWebhooks',
  summary: 'Register a webhook for the ends of your executions (201, with its signing secret, shown once)',
  description:
    'Each event is POSTed as JSON with X-Laneway-Event, X-Laneway-Delivery and X-Laneway-Signature-256: ' +
    '`sha256=` and the hex HMAC-SHA256 of the body with the secret. Answers other than 2xx (redirects ' +
    'included) and timeouts are retried with exponential backoff, up to 6 attempts.',
  tags: ['webhooks'],
  body: NewWebhookBody,
  response: { 201: Webhook },
});

export const getWebhooks = op({
  method: 'GET',
  path: '/api/webhooks',
  operationId: 'getWebhooks',
  summary: 'Your webhooks',
  tags: ['webhooks'],
  query: PageQuery,
  response: { 200: WebhookPage },
});

export const getWebhooksById = op({
  method: 'GET',
  path: '/api/webhooks/:id',
  operationId: 'getWebhooksById',
  summary: 'One of your webhooks',
  tags: ['webhooks'],
  params: IdParams,
  response: { 200: Webhook },
});

export const patchWebhooksById = op({
  method: 'PATCH',
  path: '/api/webhooks/:id',
  operationId: 'patchWebhooksById',
  summary: 'Change the URL, description, events, or pause it (active: false)',
  tags: ['webhooks'],
  params: IdParams,
  body: WebhookChangesBody,
  response: { 200: Webhook },
});

export const deleteWebhooksById = op({
  method: 'DELETE',
  path: '/api/webhooks/:id',
  operationId: 'deleteWebhooksById',
  summary: 'Delete a webhook and its delivery log',
  tags: ['webhooks'],
  params: IdParams,
});

export const getWebhooksByIdDeliveries = op({
  method: 'GET',
  path: '/api/webhooks/:id/deliveries',
  operationId: 'getWebhooksByIdDeliveries',
  summary: "A webhook's delivery log, newest first: each event, its status and every attempt",
  tags: ['webhooks'],
  params: IdParams,
  query: DeliveriesQuery,
  response: { 200: WebhookDeliveryPage },
});
