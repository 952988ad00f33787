/** Data records: list, read, download (with Range) and delete, through the policy. */
import { createReadStream, statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { requireAccess, requireFullControl, visibleWhere } from '../policy/policy';
import { removeBlobIfUnused } from './content-store';
import { dataFilePath, dataRecordSchema, getDataRow, presentData, type DataRecord } from './data-store';
import { contentDisposition, parseRange } from './http-range';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/** Registers /api/data routes. */
export function dataRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(
    '/api/data/',
    {
      schema: {
        summary: 'Data records the caller can see',
        tags: ['data'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            data_type: { type: 'string' },
            source: { type: 'string', enum: ['upload', 'execution', 'lane'] },
            unassigned: { type: 'boolean' },
          },
        },
        response: { 200: pageResponseSchema(dataRecordSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery & { data_type?: string; source?: string; unassigned?: boolean };
      const visible = visibleWhere('data', 'd', user);
      const where = [visible.sql];
      const params: unknown[] = [...visible.params];
      if (q.data_type) {
        where.push('d.data_type = ?');
        params.push(q.data_type);
      }
      if (q.source) {
        where.push('d.source = ?');
        params.push(q.source);
      }
      if (q.unassigned) {
        where.push('NOT EXISTS (SELECT 1 FROM samples s WHERE s.read1_id = d.id OR s.read2_id = d.id)');
      }
      const sql = `FROM data_files d WHERE ${where.join(' AND ')}`;
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const { limit, offset } = limitOffset(q);
      const rows = ctx.db
        .prepare(`SELECT d.* ${sql} ORDER BY d.id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as DataRecord[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map((r) => presentData(ctx, r, user)) };
    },
  );

  app.get(
    '/api/data/:id',
    { schema: { summary: 'One data record', tags: ['data'], params: idParams, response: { 200: dataRecordSchema } } },
    async (request) => {
      const user = requireUser(request);
      const { id } = request.params as { id: number };
      requireAccess(ctx.db, 'data', id, user, 'view');
      return presentData(ctx, getDataRow(ctx, id)!, user);
    },
  );

  app.get(
    '/api/data/:id/download',
    {
      schema: {
        summary: 'The bytes of a data record (HTTP Range supported)',
        tags: ['data'],
        params: idParams,
        response: {
          200: { type: 'string', format: 'binary' },
          206: { type: 'string', format: 'binary' },
          416: {
            type: 'object',
            properties: { error: { type: 'string' }, code: { type: 'string' }, status: { type: 'integer' } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params as { id: number };
      requireAccess(ctx.db, 'data', id, user, 'view');
      const row = getDataRow(ctx, id)!;
      const path = dataFilePath(ctx, id);
      const size = statSync(path).size;
      reply.header('accept-ranges', 'bytes');
      reply.header('etag', `"${row.checksum}"`);
      reply.header('content-disposition', contentDisposition(row.filename));
      reply.header('content-type', 'application/octet-stream');
      const range = parseRange(request.headers.range, size);
      const ifRange = request.headers['if-range'];
      // A download is recorded once, when it starts; range requests that resume it are not.
      if (range.kind !== 'unsatisfiable' && (range.kind !== 'partial' || range.start === 0)) {
        audit(ctx, user, 'downloaded', { kind: 'data', id, name: row.filename }, { bytes: size });
      }
      if (range.kind === 'unsatisfiable') {
        reply.header('content-range', `bytes */${size}`);
        const body = new ApiError(
          'RANGE_NOT_SATISFIABLE',
          `Range not satisfiable: the file has ${size} bytes`,
        ).toBody();
        return reply.status(416).header('content-type', 'application/json').send(body);
      }
      if (range.kind === 'partial' && (ifRange === undefined || ifRange === `"${row.checksum}"`)) {
        reply.status(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
        reply.header('content-length', String(range.end - range.start + 1));
        return reply.send(createReadStream(path, { start: range.start, end: range.end }));
      }
      reply.header('content-length', String(size));
      return reply.send(createReadStream(path));
    },
  );

  app.delete(
    '/api/data/:id',
    { schema: { summary: 'Delete a data record not used by a sample', tags: ['data'], params: idParams } },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params as { id: number };
      requireFullControl(ctx.db, 'data', id, user);
      const used = ctx.db.prepare('SELECT id FROM samples WHERE read1_id = ? OR read2_id = ?').get(id, id) as
        { id: number } | undefined;
      if (used) throw errors.conflict(`Data file ${id} holds reads of sample ${used.id}: delete the sample first`);
      const lane = ctx.db.prepare('SELECT id FROM lanes WHERE read1_id = ? OR read2_id = ?').get(id, id) as
        { id: number } | undefined;
      if (lane) throw errors.conflict(`Data file ${id} holds the reads of lane ${lane.id}`);
      const row = getDataRow(ctx, id)!;
      ctx.db.transaction(() => {
        ctx.db.prepare("DELETE FROM shares WHERE kind = 'data' AND resource_id = ?").run(id);
        ctx.db.prepare('DELETE FROM data_files WHERE id = ?').run(id);
        audit(ctx, user, 'deleted', { kind: 'data', id, name: row.filename }, { checksum: row.checksum });
      })();
      removeBlobIfUnused(ctx, row.storage_key);
      return reply.status(204).send();
    },
  );
}
