/** POST /api/executions/{id}/rerun and /resume: thin routes over the re-run and resume commands. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { requireUser } from '../auth/authenticate';
import type { PipelineService } from './execution-service';
import { presentExecution } from './execution-presenter';
import { rerunExecution, resumeExecution } from './rerun-resume.commands';
import { postExecutionsByIdRerun, postExecutionsByIdResume } from '../../shared/service-api/endpoints/rerun-resume';
import { serve } from '../http/serve-endpoint';

/** Registers the re-run and resume routes. */
export function rerunResumeRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, postExecutionsByIdRerun, async (request, reply) => {
    const user = requireUser(request);
    const row = rerunExecution(ctx, svc.catalogue, svc.queue, user, request.params.id, request.body);
    return reply.status(201).send(presentExecution(ctx, row, user));
  });

  serve(api, postExecutionsByIdResume, async (request) => {
    const user = requireUser(request);
    const row = resumeExecution(ctx, svc.catalogue, svc.queue, svc.events, user, request.params.id);
    return presentExecution(ctx, row, user);
  });
}
