/**
 * Webhook use cases: register (at most MAX_WEBHOOKS_PER_USER per account, the signing secret
 * chosen by the service unless given), change, delete. Webhooks are private to their user.
 */
import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENTS, type NewWebhookBody, type WebhookChangesBody } from '../../shared/service-api/webhooks';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import {
  countWebhooksOf,
  deleteWebhookRow,
  insertWebhook,
  updateWebhookRow,
  webhookOf,
  type WebhookRow,
} from './webhooks.store';

const MAX_WEBHOOKS_PER_USER = 20;

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

/** One of the caller's webhooks; NOT_FOUND for anyone else's. */
export function loadWebhook(ctx: ServiceContext, user: AuthUser, id: number): WebhookRow {
  const row = webhookOf(ctx.db, user.id, id);
  if (!row) throw errors.notFound('Webhook');
  return row;
}

/** Registers a webhook for the caller. */
export function createWebhook(ctx: ServiceContext, user: AuthUser, b: NewWebhookBody): WebhookRow {
  const url = checkUrl(b.url);
  if (countWebhooksOf(ctx.db, user.id) >= MAX_WEBHOOKS_PER_USER) {
    throw errors.conflict(
      `You have ${MAX_WEBHOOKS_PER_USER} webhooks, the most one account may have: delete one first`,
    );
  }
  const secret = b.secret ?? randomBytes(32).toString('hex');
  return ctx.db.transaction(() => {
    const id = insertWebhook(ctx.db, {
      user_id: user.id,
      url,
      description: b.description ?? '',
      secret,
      events: JSON.stringify(b.events ?? [...WEBHOOK_EVENTS]),
      active: b.active === false ? 0 : 1,
      created: new Date(ctx.clock.now()).toISOString(),
    });
    audit(ctx, user, 'created', { kind: 'webhook', id, name: url });
    return webhookOf(ctx.db, user.id, id)!;
  })();
}

/** Changes the URL, description, events or whether it is active. */
export function updateWebhook(ctx: ServiceContext, user: AuthUser, row: WebhookRow, b: WebhookChangesBody) {
  const next = {
    url: b.url !== undefined ? checkUrl(b.url) : row.url,
    description: b.description ?? row.description,
    events: b.events ? JSON.stringify(b.events) : row.events,
    active: b.active === undefined ? row.active : b.active ? 1 : 0,
  };
  ctx.db.transaction(() => {
    updateWebhookRow(ctx.db, row.id, next);
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of ['url', 'description', 'events', 'active'] as const) {
      if (next[k] !== row[k]) changed[k] = { from: row[k], to: next[k] };
    }
    if (Object.keys(changed).length)
      audit(ctx, user, 'updated', { kind: 'webhook', id: row.id, name: next.url }, changed);
  })();
  return webhookOf(ctx.db, user.id, row.id)!;
}

/** Deletes a webhook and its delivery log. */
export function deleteWebhook(ctx: ServiceContext, user: AuthUser, row: WebhookRow): void {
  ctx.db.transaction(() => {
    deleteWebhookRow(ctx.db, row.id);
    audit(ctx, user, 'deleted', { kind: 'webhook', id: row.id, name: row.url });
  })();
}
