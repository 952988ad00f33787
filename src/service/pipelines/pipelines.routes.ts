/**
 * Pipeline catalogue routes: the list (a bare array), one pipeline, one version. Running a
 * version is the executions area's (`executions/run.routes.ts`): the catalogue sits below it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Pipeline, PipelineList, PipelineVersion } from '../../shared/service-api/pipelines';
import { IdParams } from '../../shared/service-api/resource';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import type { Catalogue } from './catalogue';
import { presentPipeline, presentVersion } from './pipeline-presenter';

/** Registers the catalogue routes. */
export function pipelinesRoutes(app: FastifyInstance, catalogue: Catalogue): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/pipelines',
    {
      schema: {
        operationId: 'getPipelines',
        summary: 'The pipeline catalogue (a bare array)',
        tags: ['pipelines'],
        response: { 200: PipelineList },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return catalogue.pipelines.map((p) => presentPipeline(catalogue, p, user));
    },
  );

  api.get(
    '/api/pipelines/:id',
    {
      schema: {
        operationId: 'getPipelinesById',
        summary: 'One pipeline with its versions',
        tags: ['pipelines'],
        params: IdParams,
        response: { 200: Pipeline },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const p = catalogue.pipeline(request.params.id);
      if (!p) throw errors.notFound('Pipeline');
      return presentPipeline(catalogue, p, user);
    },
  );

  api.get(
    '/api/pipelines/versions/:id',
    {
      schema: {
        operationId: 'getPipelinesVersionsById',
        summary: 'One pipeline version: parameters, requirements, can_run',
        tags: ['pipelines'],
        params: IdParams,
        response: { 200: PipelineVersion },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const found = catalogue.version(request.params.id);
      if (!found) throw errors.notFound('Pipeline version');
      return presentVersion(found.pipeline, found.version, user);
    },
  );
}
