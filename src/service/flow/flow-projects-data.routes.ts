/**
 * Flow's project and data reads (FLOW-WIRE.md P1-12 and §5 "api get" reads): /projects/search,
 * /projects/{id}, /projects/{id}/samples, /data/search, /data/types and /data/{id}, from the
 * service's stores, in Flow's shapes.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import { dataPage, getDataRow } from '../data/data.store';
import { accessFields, requireAccess } from '../policy/policy';
import { presentProject } from '../projects/projects.presenter';
import { projectById, visibleProjectsPage } from '../projects/projects.store';
import { samplePage, sampleById } from '../samples/samples.store';
import { flowUser } from './flow-auth';
import { flowSchema } from './flow-openapi';
import { flowSampleSummary, unix } from './flow-sample.presenter';
import { FlowAnyObject, FlowAnyArray, flowEnvelope, FlowIdParams, FlowPageQuery } from './flow.schemas';
import type { DataRow } from '../data/data.store';
import type { AuthUser } from '../auth/authenticate';

/** The data types the service stores (uploads' content checks know these). */
const DATA_TYPES = [
  { identifier: 'fastq', name: 'FASTQ', description: 'Sequencing reads' },
  { identifier: 'fasta', name: 'FASTA', description: 'Sequences (a reference genome)' },
  { identifier: 'gtf', name: 'GTF', description: 'Gene annotation (GTF)' },
  { identifier: 'gff3', name: 'GFF3', description: 'Gene annotation (GFF3)' },
  { identifier: 'bed', name: 'BED', description: 'Genomic intervals' },
];

function flowData(ctx: ServiceContext, row: DataRow, user: AuthUser) {
  const d = presentData(ctx, row, user);
  // Only a sample and a run the caller may see (presentData names no others).
  const sample = d.sample_id !== null && d.sample_id !== undefined ? sampleById(ctx, d.sample_id) : undefined;
  return {
    id: String(d.id),
    filename: d.filename,
    filetype: d.data_type,
    size: d.size,
    created: unix(d.created),
    category: d.data_type,
    is_directory: false,
    is_binary: /\.(gz|bgz)$/i.test(d.filename),
    private: true,
    can_edit: d.can_edit,
    owner: d.owner ? { username: d.owner, name: d.owner } : null,
    sample: sample ? { id: String(sample.id), name: sample.name } : null,
    execution: d.execution_id === null || d.execution_id === undefined ? null : String(d.execution_id),
  };
}

export function flowProjectDataRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/projects/search',
    {
      schema: flowSchema({
        summary: 'Projects the caller can see',
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('projects') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const { page, count } = request.query;
      const rows = visibleProjectsPage(ctx.db, user, { page, per_page: count });
      return {
        count: rows.count,
        page,
        projects: rows.items.map((row) => {
          const p = presentProject(ctx.db, row, user);
          return {
            id: String(p.id),
            name: p.name,
            created: unix(p.created ?? null),
            private: true,
            description: p.description ?? '',
            sample_count: p.sample_ids.length,
            execution_count: 0,
            owner_name: p.owner,
          };
        }),
      };
    },
  );
  app.get(
    '/projects/:id',
    { schema: flowSchema({ summary: 'One project', params: FlowIdParams, response: { 200: FlowAnyObject } }) },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'project', id, user, 'view');
      const row = projectById(ctx.db, id)!;
      const access = accessFields(ctx.db, 'project', id, user);
      return {
        id: String(row.id),
        name: row.name,
        created: unix(row.created),
        description: row.description ?? '',
        private: true,
        can_edit: access.can_edit,
        owner: access.owner ? { username: access.owner, name: access.owner } : null,
        group_owner: access.group_owner ? { slug: access.group_owner, name: access.group_owner } : null,
        papers: [],
      };
    },
  );
  app.get(
    '/projects/:id/samples',
    {
      schema: flowSchema({
        summary: "A project's samples",
        params: FlowIdParams,
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('samples') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'project', id, user, 'view');
      const { page, count } = request.query;
      const rows = samplePage(ctx, user, { project: id }, { page, per_page: count });
      return { count: rows.count, page, samples: rows.items.map((r) => flowSampleSummary(ctx, r, user)) };
    },
  );
  app.get(
    '/data/types',
    { schema: flowSchema({ summary: 'The data types the service stores', response: { 200: FlowAnyArray } }) },
    async (request) => (flowUser(request), DATA_TYPES),
  );
  app.get(
    '/data/search',
    {
      schema: flowSchema({
        summary: 'Data files the caller can see',
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('data') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const { page, count } = request.query;
      const rows = dataPage(ctx, user, {}, { page, per_page: count });
      return { count: rows.count, page, data: rows.items.map((r) => flowData(ctx, r, user)) };
    },
  );
  app.get(
    '/data/:id',
    { schema: flowSchema({ summary: 'One data file', params: FlowIdParams, response: { 200: FlowAnyObject } }) },
    async (request) => {
      const user = flowUser(request);
      const id = Number(request.params.id);
      requireAccess(ctx.db, 'data', id, user, 'view');
      return flowData(ctx, getDataRow(ctx, id)!, user);
    },
  );
}
