/**
 * /api/webhooks: the caller's webhooks (create, list, read, change, delete) and each one's
 * delivery log. Webhooks are private to their user: anyone else's answers 404. The signing
 * secret is chosen by the service (or given) and shown once, in the answer to the creation.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import {
  presentDelivery,
  presentWebhook,
  webhookOf,
  WEBHOOK_EVENTS,
  type DeliveryRow,
  type WebhookRow,
} from './webhooks.store';

const MAX_WEBHOOKS_PER_USER = 20;
const nullable = (type: string) => ({ type: [type, 'null'] });
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} as const;
const fields = {
  url: { type: 'string', minLength: 1, maxLength: 2000, description: 'http or https URL that receives POSTs' },
  description: { type: 'string', maxLength: 500 },
  events: {
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    minItems: 1,
    uniqueItems: true,
    description: 'Events to send (default: all)',
  },
  active: { type: 'boolean' },
} as const;

const webhookSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'active', 'created'],
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    description: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    active: { type: 'boolean' },
    created: { type: 'string' },
    secret: { type: 'string', description: 'Only in the answer to the creation' },
  },
} as const;

const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    webhook_id: { type: 'integer' },
    event: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    attempt_log: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string' },
          status_code: nullable('integer'),
          error: nullable('string'),
          duration_ms: { type: 'number' },
        },
      },
    },
    next_attempt_at: nullable('string'),
    created: { type: 'string' },
    finished: nullable('string'),
    payload: { type: 'object', additionalProperties: true },
  },
} as const;

/** An http(s) URL with a host, or a VALIDATION_ERROR on `url`. */
function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw errors.validation({ url: 'an absolute http or https URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.validation({ url: 'must be http or https' });
  if (!url.hostname) throw errors.validation({ url: 'needs a host' });
  return url.toString();
}

/** Registers the webhook routes. */
export function webhooksRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const tags = ['webhooks'];
  const mine = (request: FastifyRequest) => {
    const user = requireUser(request);
    const row = webhookOf(ctx.db, user.id, (request.params as { id: number }).id);
    if (!row) throw errors.notFound('Webhook');
    return { user, row };
  };

  app.post(
    '/api/webhooks',
    {
      schema: {
        summary: 'Register a webhook for the ends of your executions (201, with its signing secret, shown once)',
        description:
          'Each event is POSTed as JSON with X-Laneway-Event, X-Laneway-Delivery and X-Laneway-Signature-256: ' +
          '`sha256=` and the hex HMAC-SHA256 of the body with the secret. Answers other than 2xx (redirects ' +
          'included) and timeouts are retried with exponential backoff, up to 6 attempts.',
        tags,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['url'],
          properties: {
            ...fields,
            secret: { type: 'string', minLength: 16, maxLength: 200, description: 'Your own secret (default: random)' },
          },
        },
        response: { 201: webhookSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const b = request.body as {
        url: string;
        description?: string;
        events?: string[];
        active?: boolean;
        secret?: string;
      };
      const url = checkUrl(b.url);
      const count = (
        ctx.db.prepare('SELECT count(*) AS n FROM webhooks WHERE user_id = ?').get(user.id) as { n: number }
      ).n;
      if (count >= MAX_WEBHOOKS_PER_USER) {
        throw errors.conflict(
          `You have ${MAX_WEBHOOKS_PER_USER} webhooks, the most one account may have: delete one first`,
        );
      }
      const secret = b.secret ?? randomBytes(32).toString('hex');
      const row = ctx.db.transaction(() => {
        const id = Number(
          ctx.db
            .prepare(
              'INSERT INTO webhooks (user_id, url, description, secret, events, active, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
            )
            .run(
              user.id,
              url,
              b.description ?? '',
              secret,
              JSON.stringify(b.events ?? [...WEBHOOK_EVENTS]),
              b.active === false ? 0 : 1,
              new Date(ctx.clock.now()).toISOString(),
            ).lastInsertRowid,
        );
        audit(ctx, user, 'created', { kind: 'webhook', id, name: url });
        return webhookOf(ctx.db, user.id, id)!;
      })();
      return reply.status(201).send(presentWebhook(row, true));
    },
  );

  app.get(
    '/api/webhooks',
    {
      schema: {
        summary: 'Your webhooks',
        tags,
        querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
        response: { 200: pageResponseSchema(webhookSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery;
      const { limit, offset } = limitOffset(q);
      const count = (
        ctx.db.prepare('SELECT count(*) AS n FROM webhooks WHERE user_id = ?').get(user.id) as { n: number }
      ).n;
      const rows = ctx.db
        .prepare('SELECT * FROM webhooks WHERE user_id = ? ORDER BY id LIMIT ? OFFSET ?')
        .all(user.id, limit, offset) as WebhookRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map((r) => presentWebhook(r)) };
    },
  );

  app.get(
    '/api/webhooks/:id',
    { schema: { summary: 'One of your webhooks', tags, params: idParams, response: { 200: webhookSchema } } },
    async (request) => presentWebhook(mine(request).row),
  );

  app.patch(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Change the URL, description, events, or pause it (active: false)',
        tags,
        params: idParams,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields },
        response: { 200: webhookSchema },
      },
    },
    async (request) => {
      const { user, row } = mine(request);
      const b = request.body as { url?: string; description?: string; events?: string[]; active?: boolean };
      ctx.db
        .prepare('UPDATE webhooks SET url = ?, description = ?, events = ?, active = ? WHERE id = ?')
        .run(
          b.url !== undefined ? checkUrl(b.url) : row.url,
          b.description ?? row.description,
          b.events ? JSON.stringify(b.events) : row.events,
          b.active === undefined ? row.active : b.active ? 1 : 0,
          row.id,
        );
      return presentWebhook(webhookOf(ctx.db, user.id, row.id)!);
    },
  );

  app.delete(
    '/api/webhooks/:id',
    { schema: { summary: 'Delete a webhook and its delivery log', tags, params: idParams } },
    async (request, reply) => {
      const { user, row } = mine(request);
      ctx.db.transaction(() => {
        ctx.db.prepare('DELETE FROM webhooks WHERE id = ?').run(row.id);
        audit(ctx, user, 'deleted', { kind: 'webhook', id: row.id, name: row.url });
      })();
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        summary: "A webhook's delivery log, newest first: each event, its status and every attempt",
        tags,
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...pageQueryProperties, status: { type: 'string', enum: ['pending', 'delivered', 'failed'] } },
        },
        response: { 200: pageResponseSchema(deliverySchema) },
      },
    },
    async (request) => {
      const { row } = mine(request);
      const q = request.query as PageQuery & { status?: string };
      const where = `webhook_id = ?${q.status ? ' AND status = ?' : ''}`;
      const params: unknown[] = q.status ? [row.id, q.status] : [row.id];
      const { limit, offset } = limitOffset(q);
      const count = (
        ctx.db.prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`).get(...params) as { n: number }
      ).n;
      const rows = ctx.db
        .prepare(`SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as DeliveryRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map(presentDelivery) };
    },
  );
}
