/** The endpoints of service/executions/run.routes.ts. */
import { op } from '../endpoint';
import { Execution } from '../executions';
import { PipelineRefParams, RunBody } from '../pipelines';
import { IdParams } from '../resource';

export const postPipelinesVersionsByIdRun = op({
  method: 'POST',
  path: '/api/pipelines/versions/:id/run',
  operationId: 'postPipelinesVersionsByIdRun',
  summary: 'Run a pipeline version on samples (answers 201 with the queued execution)',
  description:
    'Checks in order: INSUFFICIENT_PERMISSIONS, samples visible (404) and compatible (INVALID_SAMPLES), MISSING_PARAMETERS, INVALID_PARAMETERS.',
  tags: ['pipelines'],
  params: IdParams,
  body: RunBody,
  response: { 201: Execution },
});

export const postPipelinesByIdRun = op({
  method: 'POST',
  path: '/api/pipelines/:id/run',
  operationId: 'postPipelinesByIdRun',
  summary: 'Run a pipeline by id or name: its latest version, or the version whose label is given as `version`',
  tags: ['pipelines'],
  params: PipelineRefParams,
  body: RunBody,
  response: { 201: Execution },
});
