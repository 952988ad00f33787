/** POST /api/executions/{id}/rerun and /resume: thin routes over the re-run and resume commands. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { requireUser } from '../identity/authenticate';
import type { PipelineService } from '../pipelines/pipeline-service';
import { runBodySchema } from '../pipelines/pipelines.routes';
import { executionSchema, presentExecution } from './execution-presenter';
import { rerunExecution, resumeExecution, type RerunInput } from './rerun-resume.commands';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} as const;

const { version: _version, upstream_execution: _upstream, ...rerunFields } = runBodySchema.properties;

/** The re-run body: any of the run's settings to change; absent ones are taken from the execution. */
export const rerunBodySchema = { type: 'object', additionalProperties: false, properties: rerunFields } as const;

/** Registers the re-run and resume routes. */
export function rerunResumeRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  app.post(
    '/api/executions/:id/rerun',
    {
      schema: {
        summary: 'Start a new execution with the same version, samples, parameters and resources (201)',
        description:
          'The body may change name, samples, parameters (merged over the old ones), metadata, priority, resources ' +
          '(merged), test_mode and group_owner. Needs view access to the execution and permission to run ' +
          'pipelines; the new execution is the caller’s (or group_owner’s) and names the old one in rerun_of. ' +
          'The run checks apply (INVALID_SAMPLES, MISSING_PARAMETERS, INVALID_PARAMETERS); 409 CONFLICT when the ' +
          'version is gone or cannot run here.',
        tags: ['executions'],
        params: idParams,
        body: rerunBodySchema,
        response: { 201: executionSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      const row = rerunExecution(ctx, svc.catalogue, svc.queue, user, id, (request.body ?? {}) as RerunInput);
      return reply.status(201).send(presentExecution(ctx, row, user));
    },
  );

  app.post(
    '/api/executions/:id/resume',
    {
      schema: {
        summary: 'Continue a failed or interrupted execution on its kept work folder (Snakemake, Nextflow)',
        description:
          'Queues the same execution again; Snakemake continues with --rerun-incomplete, Nextflow with -resume, ' +
          'so finished steps are not run again. Needs edit access. 409 NOT_RESUMABLE with the reason when it ' +
          'cannot: a built-in engine, still queued or running, completed, cancelled, or its work folder is gone. ' +
          'The execution body’s `resume` field says the same before you ask.',
        tags: ['executions'],
        params: idParams,
        response: { 200: executionSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      const row = resumeExecution(ctx, svc.catalogue, svc.queue, svc.events, user, id);
      return presentExecution(ctx, row, user);
    },
  );
}
