/**
 * Execution routes: the list with filters (status, pipeline, sample), detail, logs after a
 * cursor, cancel, and the Nextflow weblog receiver (authenticated by the run's secret, since
 * Nextflow cannot send a bearer token). Sharing and permissions are the policy's generic routes.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { mapPage } from '../db/select-page';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import type { PipelineService } from './execution-service';
import { isTerminal } from './execution-events';
import { presentExecution } from './execution-presenter';
import { executionPage, getExecution, listLogs } from './executions.store';
import {
  getExecutions,
  getExecutionsById,
  getExecutionsByIdLogs,
  postExecutionsByIdCancel,
  postExecutionsByIdWeblogBySecret,
} from '../../shared/service-api/endpoints/executions';
import { serve } from '../http/serve-endpoint';

/** Registers the execution routes. */
export function executionsRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, getExecutions, async (request) => {
    const user = requireUser(request);
    const { page, per_page, ...filter } = request.query;
    return mapPage(executionPage(ctx.db, user, filter, { page, per_page }), (r) =>
      presentExecution(ctx, r, user, false),
    );
  });

  serve(api, getExecutionsById, async (request) => {
    const user = requireUser(request);
    const id = request.params.id;
    requireAccess(ctx.db, 'execution', id, user, 'view');
    return presentExecution(ctx, getExecution(ctx.db, id)!, user);
  });

  serve(api, getExecutionsByIdLogs, async (request) => {
    const user = requireUser(request);
    const id = request.params.id;
    const { after, limit } = request.query;
    requireAccess(ctx.db, 'execution', id, user, 'view');
    const items = listLogs(ctx.db, id, after, limit);
    const finished = isTerminal(getExecution(ctx.db, id)!.status);
    return { items, next: items.at(-1)?.id ?? after, complete: finished && items.length < limit };
  });

  serve(api, postExecutionsByIdCancel, async (request) => {
    const user = requireUser(request);
    const id = request.params.id;
    requireAccess(ctx.db, 'execution', id, user, 'edit');
    if (!svc.queue.cancel(id, user)) {
      const status = getExecution(ctx.db, id)!.status;
      throw new ApiError('NOT_CANCELLABLE', `The execution has already finished (${status})`);
    }
    await svc.queue.settled(id);
    return presentExecution(ctx, getExecution(ctx.db, id)!, user);
  });

  serve(api, postExecutionsByIdWeblogBySecret, async (request, reply) => {
    const { id, secret } = request.params;
    // A map lookup by secret, then the id: the secret is 48 random hex digits per execution.
    const receiver = ctx.parts.weblogReceivers.get(secret);
    if (!receiver || receiver.executionId !== id) throw errors.notFound('Running execution');
    receiver.receive(request.body);
    return reply.status(204).send();
  });
}
