/**
 * Execution routes: the list with filters (status, pipeline, sample), detail, logs after a
 * cursor, cancel, and the Nextflow weblog receiver (authenticated by the run's secret, since
 * Nextflow cannot send a bearer token). Sharing and permissions are the policy's generic routes.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  Execution,
  ExecutionListQuery,
  ExecutionPage,
  LogsPage,
  LogsQuery,
  NextflowWeblogEvent,
  WeblogParams,
} from '../../shared/service-api/executions';
import { IdParams } from '../../shared/service-api/resource';
import { mapPage } from '../db/select-page';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import type { PipelineService } from './execution-service';
import { isTerminal } from './execution-events';
import { presentExecution } from './execution-presenter';
import { executionPage, getExecution, listLogs } from './executions.store';

/** Registers the execution routes. */
export function executionsRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/api/executions/',
    {
      schema: {
        operationId: 'getExecutions',
        summary: 'Executions the caller can see, newest first',
        description: 'Filters: status, pipeline (id or name), sample (id).',
        tags: ['executions'],
        querystring: ExecutionListQuery,
        response: { 200: ExecutionPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { page, per_page, ...filter } = request.query;
      return mapPage(executionPage(ctx.db, user, filter, { page, per_page }), (r) =>
        presentExecution(ctx, r, user, false),
      );
    },
  );

  api.get(
    '/api/executions/:id',
    {
      schema: {
        operationId: 'getExecutionsById',
        summary: 'One execution: processes, outputs, latest logs',
        tags: ['executions'],
        params: IdParams,
        response: { 200: Execution },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.id;
      requireAccess(ctx.db, 'execution', id, user, 'view');
      return presentExecution(ctx, getExecution(ctx.db, id)!, user);
    },
  );

  api.get(
    '/api/executions/:id/logs',
    {
      schema: {
        operationId: 'getExecutionsByIdLogs',
        summary: 'Log entries after a cursor (the id of the last entry seen), oldest first',
        tags: ['executions'],
        params: IdParams,
        querystring: LogsQuery,
        response: { 200: LogsPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.id;
      const { after, limit } = request.query;
      requireAccess(ctx.db, 'execution', id, user, 'view');
      const items = listLogs(ctx.db, id, after, limit);
      const finished = isTerminal(getExecution(ctx.db, id)!.status);
      return { items, next: items.at(-1)?.id ?? after, complete: finished && items.length < limit };
    },
  );

  api.post(
    '/api/executions/:id/cancel',
    {
      schema: {
        operationId: 'postExecutionsByIdCancel',
        summary: 'Cancel a queued or running execution (its whole process tree is killed)',
        tags: ['executions'],
        params: IdParams,
        response: { 200: Execution },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.id;
      requireAccess(ctx.db, 'execution', id, user, 'edit');
      if (!svc.queue.cancel(id, user)) {
        const status = getExecution(ctx.db, id)!.status;
        throw new ApiError('NOT_CANCELLABLE', `The execution has already finished (${status})`);
      }
      await svc.queue.settled(id);
      return presentExecution(ctx, getExecution(ctx.db, id)!, user);
    },
  );

  api.post(
    '/api/executions/:id/weblog/:secret',
    {
      schema: {
        operationId: 'postExecutionsByIdWeblogBySecret',
        summary: "Nextflow -with-weblog events of a running execution (authenticated by the run's secret)",
        tags: ['executions'],
        security: [],
        params: WeblogParams,
        body: NextflowWeblogEvent,
      },
    },
    async (request, reply) => {
      const { id, secret } = request.params;
      // A map lookup by secret, then the id: the secret is 48 random hex digits per execution.
      const receiver = ctx.parts.weblogReceivers.get(secret);
      if (!receiver || receiver.executionId !== id) throw errors.notFound('Running execution');
      receiver.receive(request.body);
      return reply.status(204).send();
    },
  );
}
