/** POST /api/upload/multiplexed (a lane with its annotation), GET /api/lanes/ and /api/lanes/{id}. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { readLaneForm } from './lane-form';
import { createLane } from './lanes.commands';
import { laneSchema, presentLane } from './lanes.presenter';
import { laneById, laneVisibleWhere, type LaneRow } from './lanes.store';

/** The multipart route (registered where fastify leaves multipart bodies unread). */
export function laneUploadRoute(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/api/upload/multiplexed',
    {
      schema: {
        summary: 'Upload a lane: annotation sheet and multiplexed reads; demultiplexing runs in the background',
        description:
          'Multipart fields: name, annotation (xlsx or csv), file (FASTQ or FASTQ.gz) or file_data_id, optional ' +
          'file2 or file2_data_id (read 2), index1/index2 or index1_data_id/index2_data_id (I1/I2 index reads), ' +
          "mismatches (0 to 2, or per index or end like 1,0), layout (NNNXXXXXXNN, ...XXXXXXNNNN for 3', " +
          'NNNXXXXXXNN...XXXXXXNNNN for both ends), barcode_source (auto, inline, header, index-reads), ' +
          'barcode_read (1 or 2), ignore_warnings=true. Answers 202 with the lane.',
        tags: ['lanes'],
        consumes: ['multipart/form-data'],
        response: { 202: laneSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const form = await readLaneForm(ctx, request);
      try {
        const lane = await createLane(ctx, user, form);
        return reply.status(202).send(presentLane(ctx, lane));
      } finally {
        form.cleanup();
      }
    },
  );
}

/** The lane reading routes. */
export function laneRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(
    '/api/lanes/',
    {
      schema: {
        summary: 'Lanes of the caller and their groups',
        tags: ['lanes'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            status: { type: 'string', enum: ['demultiplexing', 'complete', 'failed'] },
          },
        },
        response: { 200: pageResponseSchema(laneSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery & { status?: string };
      const visible = laneVisibleWhere('l', user.id);
      const where = [visible.sql];
      const params = [...visible.params];
      if (q.status) {
        where.push('l.status = ?');
        params.push(q.status);
      }
      const sql = `FROM lanes l WHERE ${where.join(' AND ')}`;
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const { limit, offset } = limitOffset(q);
      const rows = ctx.db
        .prepare(`SELECT l.* ${sql} ORDER BY l.id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as LaneRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map((r) => presentLane(ctx, r)) };
    },
  );

  app.get(
    '/api/lanes/:id',
    {
      schema: {
        summary: 'One lane: status, progress, per-sample read counts, top unknown barcodes',
        tags: ['lanes'],
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
        response: { 200: laneSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { id } = request.params as { id: number };
      const visible = laneVisibleWhere('l', user.id);
      const row = ctx.db
        .prepare(`SELECT l.id FROM lanes l WHERE l.id = ? AND ${visible.sql}`)
        .get(id, ...visible.params);
      if (!row) throw errors.notFound('Lane');
      return presentLane(ctx, laneById(ctx, id)!);
    },
  );
}
