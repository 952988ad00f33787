/**
 * `/samples/{id}/executions` and `/projects/{id}/executions`: the executions on one sample, or
 * on a project's samples, as Flow pages them. One route twice: only the filter differs.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { executionPage } from '../executions/executions.store';
import { requireAccess } from '../policy/policy';
import { flowUser } from './flow-auth';
import { flowExecutionSummary } from './flow-execution.presenter';
import { flowSchema } from './flow-openapi';
import { flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';

/** Registers `GET /{kind}s/:id/executions` on the mount's scope. */
export function flowExecutionsOfRoute(
  scope: FastifyInstance,
  ctx: ServiceContext,
  kind: 'sample' | 'project',
  summary: string,
): void {
  scope.withTypeProvider<TypeBoxTypeProvider>().get(
    `/${kind}s/:id/executions`,
    {
      schema: flowSchema({
        summary,
        params: FlowIdParams,
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('executions') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, kind, id, user, 'view');
      const { page, count } = request.query;
      const filter = kind === 'sample' ? { sample: id } : { project: id };
      const rows = executionPage(ctx.db, user, filter, { page, per_page: count });
      return { count: rows.count, page, executions: rows.items.map((r) => flowExecutionSummary(ctx, r, user, false)) };
    },
  );
}
