/** Flow's execution reads and GET /downloads/{id}/{filename}. */
import { createReadStream, statSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import { contentDisposition } from '../data/http-range';
import { executionPage, getExecution } from '../executions/executions.store';
import { accessTo } from '../policy/policy';
import { requireAccess } from '../policy/policy';
import type { PipelineService } from '../executions/execution-service';
import { flowUser } from './flow-auth';
import { flowExecutionDetail, flowExecutionSummary } from './flow-execution.presenter';
import { flowSchema } from './flow-openapi';
import { FlowAnyObject, flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';

const STATUS_FROM_FLOW: Record<string, string> = { OK: 'completed', ERROR: 'failed', CANCELED: 'cancelled' };

const SearchQuery = Type.Intersect([
  FlowPageQuery,
  Type.Object(
    {
      status: Type.Optional(Type.String()),
      pipeline: Type.Optional(Type.String()),
      return_data: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
]);

export function flowExecutionRoutes(scope: FastifyInstance, ctx: ServiceContext, _svc: PipelineService): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `/executions/search`,
    {
      schema: flowSchema({
        summary: 'Executions the caller can see (status, pipeline; return_data=true adds the outputs)',
        querystring: SearchQuery,
        response: { 200: flowEnvelope('executions') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const q = request.query as {
        page: number;
        count: number;
        status?: string;
        pipeline?: string;
        return_data?: string;
      };
      const status = q.status ? (STATUS_FROM_FLOW[q.status.toUpperCase()] ?? q.status.toLowerCase()) : undefined;
      const page = executionPage(ctx.db, user, { status, pipeline: q.pipeline }, { page: q.page, per_page: q.count });
      const withData = (q.return_data ?? '').toLowerCase() === 'true';
      return {
        count: page.count,
        page: q.page,
        executions: page.items.map((r) => flowExecutionSummary(ctx, r, user, withData)),
      };
    },
  );

  app.get(
    `/executions/:id`,
    {
      schema: flowSchema({
        summary: 'One execution (poll until status is OK, ERROR or CANCELED)',
        params: FlowIdParams,
        response: { 200: FlowAnyObject },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'execution', id, user, 'view');
      return flowExecutionDetail(ctx, getExecution(ctx.db, id)!, user);
    },
  );

  app.get(
    `/downloads/:id/:filename`,
    {
      schema: flowSchema({
        summary: "A data file's bytes; the filename must be the record's; every refusal is a 404 with an empty body",
        params: Type.Object({ id: Type.String(), filename: Type.String() }),
      }),
    },
    async (request, reply) => {
      const { id: idText, filename } = request.params;
      const id = /^\d{1,15}$/.test(idText) ? Number(idText) : 0;
      let user;
      try {
        user = flowUser(request);
      } catch {
        user = null;
      }
      const row = id ? getDataRow(ctx, id) : undefined;
      if (!user || !row || row.filename !== filename || accessTo(ctx.db, 'data', id, user) === null) {
        return reply.status(404).header('content-type', 'text/plain').send('');
      }
      const path = dataFilePath(ctx, id);
      audit(ctx, user, 'downloaded', { kind: 'data', id, name: row.filename }, { bytes: row.size });
      const inline = (request.query as { direct?: string }).direct === 'yes';
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(statSync(path).size))
        .header('content-disposition', inline ? 'inline' : contentDisposition(row.filename))
        .send(createReadStream(path));
    },
  );
}
