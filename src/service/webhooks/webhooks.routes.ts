/**
 * /api/webhooks: the caller's webhooks (create, list, read, change, delete) and each one's
 * delivery log. Webhooks are private to their user: anyone else's answers 404. The signing
 * secret is chosen by the service (or given) and shown once, in the answer to the creation.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { createWebhook, deleteWebhook, loadWebhook, updateWebhook } from './webhooks.commands';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import { deliveriesPage, webhooksPage } from './webhooks.store';
import {
  deleteWebhooksById,
  getWebhooks,
  getWebhooksById,
  getWebhooksByIdDeliveries,
  patchWebhooksById,
  postWebhooks,
} from '../../shared/service-api/endpoints/webhooks';
import { serve } from '../http/serve-endpoint';

/** Registers the webhook routes. */
export function webhooksRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  serve(app, postWebhooks, async (request, reply) => {
    const row = createWebhook(ctx, requireUser(request), request.body);
    return reply.status(201).send(presentWebhook(row, true));
  });

  serve(app, getWebhooks, async (request) => {
    const user = requireUser(request);
    return mapPage(webhooksPage(ctx.db, user.id, request.query), (r) => presentWebhook(r));
  });

  serve(app, getWebhooksById, async (request) =>
    presentWebhook(loadWebhook(ctx, requireUser(request), request.params.id)),
  );

  serve(app, patchWebhooksById, async (request) => {
    const user = requireUser(request);
    const row = loadWebhook(ctx, user, request.params.id);
    return presentWebhook(updateWebhook(ctx, user, row, request.body));
  });

  serve(app, deleteWebhooksById, async (request, reply) => {
    const user = requireUser(request);
    deleteWebhook(ctx, user, loadWebhook(ctx, user, request.params.id));
    return reply.status(204).send();
  });

  serve(app, getWebhooksByIdDeliveries, async (request) => {
    const row = loadWebhook(ctx, requireUser(request), request.params.id);
    return mapPage(deliveriesPage(ctx.db, row.id, request.query), presentDelivery);
  });
}
