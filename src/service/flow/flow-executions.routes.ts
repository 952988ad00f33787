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
import { badRequest } from './flow-errors';
import { flowExecutionDetail, flowExecutionSummary } from './flow-execution.presenter';
import { flowSchema } from './flow-openapi';
import { SearchCommon, searchOptions } from './flow-search-query';
import { FlowAnyObject, flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';

const STATUS_FROM_FLOW: Record<string, string> = { OK: 'completed', ERROR: 'failed', CANCELED: 'cancelled' };

const SearchQuery = Type.Intersect([
  FlowPageQuery,
  Type.Object(
    {
      status: Type.Optional(Type.String()),
      pipeline: Type.Optional(Type.String()),
      return_data: Type.Optional(Type.String()),
      ...SearchCommon,
    },
    { additionalProperties: true },
  ),
]);

const Fields = Type.Union([
  Type.String({ maxLength: 100 }),
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
]);
const DetailQuery = Type.Object(
  {
    log: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    include: Type.Optional(Fields),
    exclude: Type.Optional(Fields),
  },
  { additionalProperties: true },
);

export function flowExecutionRoutes(scope: FastifyInstance, ctx: ServiceContext, _svc: PipelineService): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `/executions/search`,
    {
      schema: flowSchema({
        summary:
          'Executions the caller can see (status, pipeline, owned, created_gt/lt, sort -created|created|name|-name; return_data=true adds the outputs)',
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
        sort?: string;
        owned?: string;
        created_gt?: string;
        created_lt?: string;
      };
      const status = q.status ? (STATUS_FROM_FLOW[q.status.toUpperCase()] ?? q.status.toLowerCase()) : undefined;
      const filter = { ...searchOptions(q, user), status, pipeline: q.pipeline };
      const page = executionPage(ctx.db, user, filter, { page: q.page, per_page: q.count });
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
        summary:
          'One execution (poll until status is OK, ERROR or CANCELED); log=<byte offset> gives the log from there, include= or exclude= (repeated) pick the fields',
        params: FlowIdParams,
        querystring: DetailQuery,
        response: { 200: FlowAnyObject },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      const q = request.query as { log?: number; include?: string | string[]; exclude?: string | string[] };
      const list = (v?: string | string[]) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
      const include = list(q.include);
      const exclude = list(q.exclude);
      if (include.length && exclude.length) throw badRequest('Use include or exclude, not both');
      requireAccess(ctx.db, 'execution', id, user, 'view');
      // A poller that has the log up to a byte offset asks for the rest only (flow-execution-log.ts).
      const detail: Record<string, unknown> = flowExecutionDetail(ctx, getExecution(ctx.db, id)!, user, q.log ?? 0);
      if (include.length)
        return Object.fromEntries(Object.entries(detail).filter(([k]) => k === 'id' || include.includes(k)));
      for (const k of exclude) if (k !== 'id') delete detail[k];
      return detail;
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
