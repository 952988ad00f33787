/**
 * Pipeline catalogue and run routes: the list (a bare array), one pipeline, one version, a run
 * of a version, and a run by pipeline (the latest version, or the one named by `version`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { executionSchema, presentExecution } from '../executions/execution-presenter';
import { createRun, type RunInput } from '../executions/run-command';
import { latestVersion } from './catalogue';
import { pipelineSchema, presentPipeline, presentVersion, versionSchema } from './pipeline-presenter';
import type { PipelineService } from './pipeline-service';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/** The run request body: the spec's fields and the client's extras. */
export const runBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 200 },
    samples: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 1000 },
    parameters: { type: 'object' },
    metadata: { type: 'object' },
    upstream_execution: { type: ['integer', 'null'], minimum: 1 },
    priority: { type: 'string', enum: ['high', 'normal', 'low'] },
    resources: {
      type: 'object',
      additionalProperties: false,
      properties: {
        cpus: { type: 'integer' },
        memory: { type: ['string', 'number', 'null'] },
        queue: { type: ['string', 'null'] },
        time_limit: { type: ['string', 'number', 'null'] },
      },
    },
    test_mode: { type: 'boolean' },
    version: { type: 'string' },
    group_owner: { type: ['string', 'null'] },
  },
} as const;

/** Registers the catalogue and run routes. */
export function pipelinesRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const { catalogue } = svc;

  app.get(
    '/api/pipelines',
    {
      schema: {
        summary: 'The pipeline catalogue (a bare array)',
        tags: ['pipelines'],
        response: { 200: { type: 'array', items: pipelineSchema } },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return catalogue.pipelines.map((p) => presentPipeline(catalogue, p, user));
    },
  );

  app.get(
    '/api/pipelines/:id',
    {
      schema: {
        summary: 'One pipeline with its versions',
        tags: ['pipelines'],
        params: idParams,
        response: { 200: pipelineSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const p = catalogue.pipeline((request.params as { id: number }).id);
      if (!p) throw errors.notFound('Pipeline');
      return presentPipeline(catalogue, p, user);
    },
  );

  app.get(
    '/api/pipelines/versions/:id',
    {
      schema: {
        summary: 'One pipeline version: parameters, requirements, can_run',
        tags: ['pipelines'],
        params: idParams,
        response: { 200: versionSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const found = catalogue.version((request.params as { id: number }).id);
      if (!found) throw errors.notFound('Pipeline version');
      return presentVersion(found.pipeline, found.version, user);
    },
  );

  const run = (request: FastifyRequest, versionId: number, body: RunInput) => {
    const user = requireUser(request);
    const row = createRun(ctx, catalogue, svc.queue.capacity, user, versionId, body);
    svc.queue.kick();
    return presentExecution(ctx, row, user);
  };

  app.post(
    '/api/pipelines/versions/:id/run',
    {
      schema: {
        summary: 'Run a pipeline version on samples (answers 201 with the queued execution)',
        description:
          'Checks in order: INSUFFICIENT_PERMISSIONS, samples visible (404) and compatible (INVALID_SAMPLES), MISSING_PARAMETERS, INVALID_PARAMETERS.',
        tags: ['pipelines'],
        params: idParams,
        body: runBodySchema,
        response: { 201: executionSchema },
      },
    },
    async (request, reply) => {
      const { version: _label, ...body } = (request.body ?? {}) as RunInput & { version?: string };
      return reply.status(201).send(run(request, (request.params as { id: number }).id, body));
    },
  );

  app.post(
    '/api/pipelines/:id/run',
    {
      schema: {
        summary: 'Run a pipeline by id or name: its latest version, or the version whose label is given as `version`',
        tags: ['pipelines'],
        params: {
          type: 'object',
          required: ['id'],
          properties: {
            // Named like GET /api/pipelines/:id: the router shares one parameter per position.
            id: { type: 'string', minLength: 1, maxLength: 200, description: 'pipeline id or name' },
          },
        },
        body: runBodySchema,
        response: { 201: executionSchema },
      },
    },
    async (request, reply) => {
      requireUser(request);
      const body = (request.body ?? {}) as RunInput & { version?: string };
      const ref = (request.params as { id: string }).id;
      const p = /^\d+$/.test(ref) ? catalogue.pipeline(Number(ref)) : catalogue.pipelineByName(ref);
      if (!p) throw errors.notFound('Pipeline');
      const v = body.version ? p.versions.find((x) => x.manifest.version === body.version) : latestVersion(p);
      if (!v) throw errors.validation({ version: `no version ${body.version} of ${p.manifest.name}` });
      const { version: _label, ...rest } = body;
      return reply.status(201).send(run(request, v.id, rest));
    },
  );
}
