/** POST /api/executions/{id}/rerun and /resume: thin routes over the re-run and resume commands. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Execution, ExecutionIdParams } from '../../shared/service-api/executions';
import { RerunBody } from '../../shared/service-api/pipelines';
import type { ServiceContext } from '../context';
import { requireUser } from '../auth/authenticate';
import type { PipelineService } from './execution-service';
import { presentExecution } from './execution-presenter';
import { rerunExecution, resumeExecution } from './rerun-resume.commands';

/** Registers the re-run and resume routes. */
export function rerunResumeRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    '/api/executions/:id/rerun',
    {
      schema: {
        operationId: 'postExecutionsByIdRerun',
        summary: 'Start a new execution with the same version, samples, parameters and resources (201)',
        description:
          'The body may change name, samples, parameters (merged over the old ones), metadata, priority, resources ' +
          '(merged), test_mode and group_owner. Needs view access to the execution and permission to run ' +
          'pipelines; the new execution is the caller’s (or group_owner’s) and names the old one in rerun_of. ' +
          'The run checks apply (INVALID_SAMPLES, MISSING_PARAMETERS, INVALID_PARAMETERS); 409 CONFLICT when the ' +
          'version is gone or cannot run here.',
        tags: ['executions'],
        params: ExecutionIdParams,
        body: RerunBody,
        response: { 201: Execution },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = rerunExecution(ctx, svc.catalogue, svc.queue, user, request.params.id, request.body);
      return reply.status(201).send(presentExecution(ctx, row, user));
    },
  );

  api.post(
    '/api/executions/:id/resume',
    {
      schema: {
        operationId: 'postExecutionsByIdResume',
        summary: 'Continue a failed or interrupted execution on its kept work folder (Snakemake, Nextflow)',
        description:
          'Queues the same execution again; Snakemake continues with --rerun-incomplete, Nextflow with -resume, ' +
          'so finished steps are not run again. Needs edit access. 409 NOT_RESUMABLE with the reason when it ' +
          'cannot: a built-in engine, still queued or running, completed, cancelled, or its work folder is gone. ' +
          'The execution body’s `resume` field says the same before you ask.',
        tags: ['executions'],
        params: ExecutionIdParams,
        response: { 200: Execution },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const row = resumeExecution(ctx, svc.catalogue, svc.queue, svc.events, user, request.params.id);
      return presentExecution(ctx, row, user);
    },
  );
}
