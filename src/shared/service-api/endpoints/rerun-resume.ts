/** The endpoints of service/executions/rerun-resume.routes.ts. */
import { op } from '../endpoint';
import { Execution, ExecutionIdParams } from '../executions';
import { RerunBody } from '../pipelines';

export const postExecutionsByIdRerun = op({
  method: 'POST',
  path: '/api/executions/:id/rerun',
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
});

export const postExecutionsByIdResume = op({
  method: 'POST',
  path: '/api/executions/:id/resume',
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
});
