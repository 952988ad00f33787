/** Sample routes: create from uploaded reads, list with filters, read, update, delete. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { requireAccess, requireFullControl, visibleWhere } from '../policy/policy';
import { createCheckedSample, deleteSample, updateSample, type NewSample } from './samples.commands';
import { presentSample, sampleSchema } from './samples.presenter';
import { sampleById, type SampleRow } from './samples.store';

const id = { type: 'integer', minimum: 1 } as const;
const idParams = { type: 'object', required: ['id'], properties: { id } } as const;
const metadata = { type: 'object', maxProperties: 100, additionalProperties: true } as const;
const name = { type: 'string', minLength: 1, maxLength: 100 } as const;

interface ListQuery extends PageQuery {
  name?: string;
  organism?: string;
  category?: string;
  project?: number;
  lane?: number;
  paired?: boolean;
}

function idOf(request: FastifyRequest): number {
  return (request.params as { id: number }).id;
}

/** Registers /api/samples routes. */
export function sampleRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/api/samples/',
    {
      schema: {
        summary: 'Create a sample from uploaded reads (read1 required, read2 for paired-end)',
        tags: ['samples'],
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'read1', 'metadata'],
          properties: {
            name,
            read1: id,
            read2: { anyOf: [id, { type: 'null' }] },
            metadata,
            project: { anyOf: [id, { type: 'null' }] },
            group_owner: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
        },
        response: { 201: sampleSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = await createCheckedSample(ctx, user, request.body as NewSample);
      return reply.status(201).send(presentSample(ctx, row, user));
    },
  );

  app.get(
    '/api/samples/',
    {
      schema: {
        summary: 'Samples the caller can see, filtered',
        tags: ['samples'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            name: { type: 'string', maxLength: 100, description: 'part of the name, any case' },
            organism: { type: 'string' },
            category: { type: 'string' },
            project: id,
            lane: id,
            paired: { type: 'boolean' },
          },
        },
        response: { 200: pageResponseSchema(sampleSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as ListQuery;
      const visible = visibleWhere('sample', 's', user);
      const where = [visible.sql];
      const params: unknown[] = [...visible.params];
      const add = (sql: string, value: unknown) => {
        where.push(sql);
        params.push(value);
      };
      if (q.name) add("s.name LIKE ? ESCAPE '\\'", `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      if (q.organism) add("lower(json_extract(s.metadata, '$.organism')) = lower(?)", q.organism);
      if (q.category) add("lower(json_extract(s.metadata, '$.category')) = lower(?)", q.category);
      if (q.project) add('s.id IN (SELECT sample_id FROM project_samples WHERE project_id = ?)', q.project);
      if (q.lane) add('s.lane_id = ?', q.lane);
      if (q.paired !== undefined) where.push(q.paired ? 's.read2_id IS NOT NULL' : 's.read2_id IS NULL');
      const sql = `FROM samples s WHERE ${where.join(' AND ')}`;
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const { limit, offset } = limitOffset(q);
      const rows = ctx.db
        .prepare(`SELECT s.* ${sql} ORDER BY s.id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as SampleRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map((r) => presentSample(ctx, r, user)) };
    },
  );

  app.get(
    '/api/samples/:id',
    {
      schema: {
        summary: 'One sample with its data',
        tags: ['samples'],
        params: idParams,
        response: { 200: sampleSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'sample', idOf(request), user, 'view');
      return presentSample(ctx, sampleById(ctx, idOf(request))!, user);
    },
  );

  const update = {
    schema: {
      summary: 'Rename a sample or replace its metadata (needs edit permission)',
      tags: ['samples'],
      params: idParams,
      body: { type: 'object', additionalProperties: false, minProperties: 1, properties: { name, metadata } },
      response: { 200: sampleSchema },
    },
  };
  const updateHandler = async (request: FastifyRequest) => {
    const user = requireUser(request);
    const row = updateSample(ctx, user, idOf(request), request.body as { name?: string; metadata?: unknown });
    return presentSample(ctx, row, user);
  };
  app.put('/api/samples/:id', update, updateHandler);
  app.patch('/api/samples/:id', update, updateHandler);

  app.delete(
    '/api/samples/:id',
    {
      schema: { summary: 'Delete a sample (its owner or an admin of its group)', tags: ['samples'], params: idParams },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireFullControl(ctx.db, 'sample', idOf(request), user);
      deleteSample(ctx, user, idOf(request));
      return reply.status(204).send();
    },
  );
}
