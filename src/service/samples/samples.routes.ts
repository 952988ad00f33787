/** Sample routes: create from uploaded reads, list with filters, read, update, delete. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { createCheckedSample, deleteSample, updateSample } from './samples.commands';
import { presentSample } from './samples.presenter';
import { sampleById, samplePage } from './samples.store';
import {
  deleteSamplesById,
  getSamples,
  getSamplesById,
  patchSamplesById,
  postSamples,
  putSamplesById,
} from '../../shared/service-api/endpoints/samples';
import { serve } from '../http/serve-endpoint';

/** Registers /api/samples routes. */
export function sampleRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, postSamples, async (request, reply) => {
    const user = requireUser(request);
    const row = await createCheckedSample(ctx, user, request.body);
    return reply.status(201).send(presentSample(ctx, row, user));
  });

  serve(api, getSamples, async (request) => {
    const user = requireUser(request);
    const { page, per_page, ...filter } = request.query;
    return mapPage(samplePage(ctx, user, filter, { page, per_page }), (r) => presentSample(ctx, r, user));
  });

  serve(api, getSamplesById, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'sample', request.params.id, user, 'view');
    return presentSample(ctx, sampleById(ctx, request.params.id)!, user);
  });

  for (const endpoint of [putSamplesById, patchSamplesById]) {
    serve(api, endpoint, async (request) => {
      const user = requireUser(request);
      return presentSample(ctx, updateSample(ctx, user, request.params.id, request.body), user);
    });
  }

  serve(api, deleteSamplesById, async (request, reply) => {
    deleteSample(ctx, requireUser(request), request.params.id);
    return reply.status(204).send();
  });
}
