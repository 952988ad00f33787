/** The endpoints of service/executions/executions.routes.ts. */
import { op } from '../endpoint';
import {
  Execution,
  ExecutionListQuery,
  ExecutionPage,
  LogsPage,
  LogsQuery,
  NextflowWeblogEvent,
  WeblogParams,
} from '../executions';
import { IdParams } from '../resource';

export const getExecutions = op({
  method: 'GET',
  path: '/api/executions/',
  operationId: 'getExecutions',
  summary: 'Executions the caller can see, newest first',
  description: 'Filters: status, pipeline (id or name), sample (id).',
  tags: ['executions'],
  query: ExecutionListQuery,
  response: { 200: ExecutionPage },
});

export const getExecutionsById = op({
  method: 'GET',
  path: '/api/executions/:id',
  operationId: 'getExecutionsById',
  summary: 'One execution: processes, outputs, latest logs',
  tags: ['executions'],
  params: IdParams,
  response: { 200: Execution },
});

export const getExecutionsByIdLogs = op({
  method: 'GET',
  path: '/api/executions/:id/logs',
  operationId: 'getExecutionsByIdLogs',
  summary: 'Log entries after a cursor (the id of the last entry seen), oldest first',
  tags: ['executions'],
  params: IdParams,
  query: LogsQuery,
  response: { 200: LogsPage },
});

export const postExecutionsByIdCancel = op({
  method: 'POST',
  path: '/api/executions/:id/cancel',
  operationId: 'postExecutionsByIdCancel',
  summary: 'Cancel a queued or running execution (its whole process tree is killed)',
  tags: ['executions'],
  params: IdParams,
  response: { 200: Execution },
});

export const postExecutionsByIdWeblogBySecret = op({
  method: 'POST',
  path: '/api/executions/:id/weblog/:secret',
  operationId: 'postExecutionsByIdWeblogBySecret',
  summary: "Nextflow -with-weblog events of a running execution (authenticated by the run's secret)",
  tags: ['executions'],
  security: [],
  params: WeblogParams,
  body: NextflowWeblogEvent,
});
