/**
 * /api/webhooks: the caller's webhooks (create, list, read, change, delete) and each one's
 * delivery log. Webhooks are private to their user: anyone else's answers 404. The signing
 * secret is chosen by the service (or given) and shown once, in the answer to the creation.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PageQuery } from '../../shared/service-api/page';
import { IdParams } from '../../shared/service-api/resource';
import {
  DeliveriesQuery,
  NewWebhookBody,
  Webhook,
  WebhookChangesBody,
  WebhookDeliveryPage,
  WebhookPage,
} from '../../shared/service-api/webhooks';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { createWebhook, deleteWebhook, loadWebhook, updateWebhook } from './webhooks.commands';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import { deliveriesPage, webhooksPage } from './webhooks.store';

/** Registers the webhook routes. */
export function webhooksRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['webhooks'];

  app.post(
    '/api/webhooks',
    {
      schema: {
        operationId: 'postWebhooks',
        summary: 'Register a webhook for the ends of your executions (201, with its signing secret, shown once)',
        description:
          'Each event is POSTed as JSON with X-Laneway-Event, X-Laneway-Delivery and X-Laneway-Signature-256: ' +
          '`sha256=` and the hex HMAC-SHA256 of the body with the secret. Answers other than 2xx (redirects ' +
          'included) and timeouts are retried with exponential backoff, up to 6 attempts.',
        tags,
        body: NewWebhookBody,
        response: { 201: Webhook },
      },
    },
    async (request, reply) => {
      const row = createWebhook(ctx, requireUser(request), request.body);
      return reply.status(201).send(presentWebhook(row, true));
    },
  );

  app.get(
    '/api/webhooks',
    {
      schema: {
        operationId: 'getWebhooks',
        summary: 'Your webhooks',
        tags,
        querystring: PageQuery,
        response: { 200: WebhookPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return mapPage(webhooksPage(ctx.db, user.id, request.query), (r) => presentWebhook(r));
    },
  );

  app.get(
    '/api/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhooksById',
        summary: 'One of your webhooks',
        tags,
        params: IdParams,
        response: { 200: Webhook },
      },
    },
    async (request) => presentWebhook(loadWebhook(ctx, requireUser(request), request.params.id)),
  );

  app.patch(
    '/api/webhooks/:id',
    {
      schema: {
        operationId: 'patchWebhooksById',
        summary: 'Change the URL, description, events, or pause it (active: false)',
        tags,
        params: IdParams,
        body: WebhookChangesBody,
        response: { 200: Webhook },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const row = loadWebhook(ctx, user, request.params.id);
      return presentWebhook(updateWebhook(ctx, user, row, request.body));
    },
  );

  app.delete(
    '/api/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhooksById',
        summary: 'Delete a webhook and its delivery log',
        tags,
        params: IdParams,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      deleteWebhook(ctx, user, loadWebhook(ctx, user, request.params.id));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'getWebhooksByIdDeliveries',
        summary: "A webhook's delivery log, newest first: each event, its status and every attempt",
        tags,
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryPage },
      },
    },
    async (request) => {
      const row = loadWebhook(ctx, requireUser(request), request.params.id);
      return mapPage(deliveriesPage(ctx.db, row.id, request.query), presentDelivery);
    },
  );
}
