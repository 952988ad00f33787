/**
 * Run routes: a run of a pipeline version, and a run by pipeline (its latest version, or the
 * one named by `version`). Both answer 201 with the queued execution.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Execution } from '../../shared/service-api/executions';
import { PipelineRefParams, RunBody } from '../../shared/service-api/pipelines';
import { IdParams } from '../../shared/service-api/resource';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { latestVersion } from '../pipelines/catalogue';
import { presentExecution } from './execution-presenter';
import type { PipelineService } from './execution-service';
import { createRun, type RunInput } from './run-command';

/** Registers the two run routes. */
export function runRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const { catalogue } = svc;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const run = (request: FastifyRequest, versionId: number, body: RunInput) => {
    const user = requireUser(request);
    const row = createRun(ctx, catalogue, svc.queue.capacity, user, versionId, body);
    svc.queue.kick();
    return presentExecution(ctx, row, user);
  };

  api.post(
    '/api/pipelines/versions/:id/run',
    {
      schema: {
        operationId: 'postPipelinesVersionsByIdRun',
        summary: 'Run a pipeline version on samples (answers 201 with the queued execution)',
        description:
          'Checks in order: INSUFFICIENT_PERMISSIONS, samples visible (404) and compatible (INVALID_SAMPLES), MISSING_PARAMETERS, INVALID_PARAMETERS.',
        tags: ['pipelines'],
        params: IdParams,
        body: RunBody,
        response: { 201: Execution },
      },
    },
    async (request, reply) => {
      const { version: _label, ...body } = request.body;
      return reply.status(201).send(run(request, request.params.id, body));
    },
  );

  api.post(
    '/api/pipelines/:id/run',
    {
      schema: {
        operationId: 'postPipelinesByIdRun',
        summary: 'Run a pipeline by id or name: its latest version, or the version whose label is given as `version`',
        tags: ['pipelines'],
        params: PipelineRefParams,
        body: RunBody,
        response: { 201: Execution },
      },
    },
    async (request, reply) => {
      requireUser(request);
      const body = request.body;
      const ref = request.params.id;
      const p = /^\d+$/.test(ref) ? catalogue.pipeline(Number(ref)) : catalogue.pipelineByName(ref);
      if (!p) throw errors.notFound('Pipeline');
      const v = body.version ? p.versions.find((x) => x.manifest.version === body.version) : latestVersion(p);
      if (!v) throw errors.validation({ version: `no version ${body.version} of ${p.manifest.name}` });
      const { version: _label, ...rest } = body;
      return reply.status(201).send(run(request, v.id, rest));
    },
  );
}
