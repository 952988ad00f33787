/** Flow's sample reads: /samples/search, /samples/{id}, /samples/{id}/data and /executions. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { requireAccess } from '../policy/policy';
import { samplePage, sampleById, type SampleFilter } from '../samples/samples.store';
import { flowUser } from './flow-auth';
import { SearchCommon, searchOptions } from './flow-search-query';
import { flowExecutionsOfRoute } from './flow-executions-of';
import { flowSchema } from './flow-openapi';
import { flowSampleData, flowSampleDetail, flowSampleSummary } from './flow-sample.presenter';
import { categoryFromFlow, organismFromFlow } from './flow-vocabulary';
import { FlowAnyObject, flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';

const SearchQuery = Type.Intersect([
  FlowPageQuery,
  Type.Object(
    {
      name: Type.Optional(Type.String()),
      organism: Type.Optional(Type.String()),
      sample_types: Type.Optional(Type.String()),
      project: Type.Optional(Type.String()),
      ...SearchCommon,
    },
    { additionalProperties: true },
  ),
]);

export function flowSampleRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `/samples/search`,
    {
      schema: flowSchema({
        summary:
          'Samples the caller can see (name, organism, sample_types, project, owned, created_gt/lt, sort -created|created|name|-name; other filters are ignored)',
        querystring: SearchQuery,
        response: { 200: flowEnvelope('samples') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const q = request.query as {
        page: number;
        count: number;
        name?: string;
        organism?: string;
        sample_types?: string;
        project?: string;
        sort?: string;
        owned?: string;
        created_gt?: string;
        created_lt?: string;
      };
      const filter: SampleFilter = searchOptions(q, user);
      if (q.name) filter.name = q.name;
      // A filter naming nothing known matches nothing (not everything).
      const none = { count: 0, page: q.page, samples: [] };
      if (q.organism) {
        const organism = organismFromFlow(q.organism);
        if (!organism) return none;
        filter.organism = organism;
      }
      const type = q.sample_types?.split(',')[0];
      if (type) {
        const category = categoryFromFlow(type);
        if (!category) return none;
        filter.category = category;
      }
      if (q.project) {
        if (!/^\d{1,15}$/.test(q.project)) return none;
        filter.project = Number(q.project);
      }
      const page = samplePage(ctx, user, filter, { page: q.page, per_page: q.count });
      return { count: page.count, page: q.page, samples: page.items.map((r) => flowSampleSummary(ctx, r, user)) };
    },
  );

  app.get(
    `/samples/:id`,
    { schema: flowSchema({ summary: 'One sample', params: FlowIdParams, response: { 200: FlowAnyObject } }) },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'sample', id, user, 'view');
      return flowSampleDetail(ctx, sampleById(ctx, id)!, user);
    },
  );

  app.get(
    `/samples/:id/data`,
    {
      schema: flowSchema({
        summary: "A sample's data: its reads and the outputs of runs on it",
        params: FlowIdParams,
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('data') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'sample', id, user, 'view');
      const all = flowSampleData(ctx, sampleById(ctx, id)!, user);
      const { page, count } = request.query;
      return { count: all.length, page, data: all.slice((page - 1) * count, page * count) };
    },
  );

  flowExecutionsOfRoute(scope, ctx, 'sample', 'Executions of a sample');
}
