/**
 * Run routes: a run of a pipeline version, and a run by pipeline (its latest version, or the
 * one named by `version`). Both answer 201 with the queued execution.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { latestVersion } from '../pipelines/catalogue';
import { presentExecution } from './execution-presenter';
import type { PipelineService } from './execution-service';
import { createRun, type RunInput } from './run-command';
import { postPipelinesByIdRun, postPipelinesVersionsByIdRun } from '../../shared/service-api/endpoints/run';
import { serve } from '../http/serve-endpoint';

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

  serve(api, postPipelinesVersionsByIdRun, async (request, reply) => {
    const { version: _label, ...body } = request.body;
    return reply.status(201).send(run(request, request.params.id, body));
  });

  serve(api, postPipelinesByIdRun, async (request, reply) => {
    requireUser(request);
    const body = request.body;
    const ref = request.params.id;
    const p = /^\d+$/.test(ref) ? catalogue.pipeline(Number(ref)) : catalogue.pipelineByName(ref);
    if (!p) throw errors.notFound('Pipeline');
    const v = body.version ? p.versions.find((x) => x.manifest.version === body.version) : latestVersion(p);
    if (!v) throw errors.validation({ version: `no version ${body.version} of ${p.manifest.name}` });
    const { version: _label, ...rest } = body;
    return reply.status(201).send(run(request, v.id, rest));
  });
}
