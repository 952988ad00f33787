/** Sample routes: create from uploaded reads, list with filters, read, update, delete. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../shared/service-api/resource';
import {
  NewSampleBody,
  Sample,
  SampleChangesBody,
  SampleListQuery,
  SamplePage,
} from '../../shared/service-api/samples';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { createCheckedSample, deleteSample, updateSample } from './samples.commands';
import { presentSample } from './samples.presenter';
import { sampleById, samplePage } from './samples.store';

/** Registers /api/samples routes. */
export function sampleRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    '/api/samples/',
    {
      schema: {
        operationId: 'postSamples',
        summary: 'Create a sample from uploaded reads (read1 required, read2 for paired-end)',
        tags: ['samples'],
        body: NewSampleBody,
        response: { 201: Sample },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = await createCheckedSample(ctx, user, request.body);
      return reply.status(201).send(presentSample(ctx, row, user));
    },
  );

  api.get(
    '/api/samples/',
    {
      schema: {
        operationId: 'getSamples',
        summary: 'Samples the caller can see, filtered',
        tags: ['samples'],
        querystring: SampleListQuery,
        response: { 200: SamplePage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { page, per_page, ...filter } = request.query;
      return mapPage(samplePage(ctx, user, filter, { page, per_page }), (r) => presentSample(ctx, r, user));
    },
  );

  api.get(
    '/api/samples/:id',
    {
      schema: {
        operationId: 'getSamplesById',
        summary: 'One sample with its data',
        tags: ['samples'],
        params: IdParams,
        response: { 200: Sample },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'sample', request.params.id, user, 'view');
      return presentSample(ctx, sampleById(ctx, request.params.id)!, user);
    },
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      '/api/samples/:id',
      {
        schema: {
          operationId: `${method}SamplesById`,
          summary: 'Rename a sample or replace its metadata (needs edit permission)',
          tags: ['samples'],
          params: IdParams,
          body: SampleChangesBody,
          response: { 200: Sample },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return presentSample(ctx, updateSample(ctx, user, request.params.id, request.body), user);
      },
    );
  }

  api.delete(
    '/api/samples/:id',
    {
      schema: {
        operationId: 'deleteSamplesById',
        summary: 'Delete a sample (its owner or an admin of its group)',
        tags: ['samples'],
        params: IdParams,
      },
    },
    async (request, reply) => {
      deleteSample(ctx, requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
