/** POST /api/upload/multiplexed (a lane with its annotation), GET /api/lanes/ and /api/lanes/{id}. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Lane, LaneListQuery, LanePage, LaneUploadForm } from '../../shared/service-api/lanes';
import { IdParams } from '../../shared/service-api/resource';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { inMultipartScope } from '../http/multipart-scope';
import { requireUser } from '../auth/authenticate';
import { mapPage } from '../db/select-page';
import { readLaneForm } from './lane-form';
import { createLane } from './lanes.commands';
import { presentLane } from './lanes.presenter';
import { lanePage, visibleLane } from './lanes.store';

/** The lane routes: the multipart upload (in a scope where multipart bodies are left unread) and the reads. */
export async function laneRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  await inMultipartScope(app, (scope) => laneUploadRoute(scope, ctx));
  laneReadRoutes(app, ctx);
}

function laneUploadRoute(app: FastifyInstance, ctx: ServiceContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/upload/multiplexed',
    {
      schema: {
        operationId: 'postUploadMultiplexed',
        summary: 'Upload a lane: annotation sheet and multiplexed reads; demultiplexing runs in the background',
        description:
          'Multipart fields: name, annotation (xlsx or csv), file (FASTQ or FASTQ.gz) or file_data_id, optional ' +
          'file2 or file2_data_id (read 2), index1/index2 or index1_data_id/index2_data_id (I1/I2 index reads), ' +
          "mismatches (0 to 2, or per index or end like 1,0), layout (NNNXXXXXXNN, ...XXXXXXNNNN for 3', " +
          'NNNXXXXXXNN...XXXXXXNNNN for both ends), barcode_source (auto, inline, header, index-reads), ' +
          'barcode_read (1 or 2), ignore_warnings=true. Answers 202 with the lane.',
        tags: ['lanes'],
        consumes: ['multipart/form-data'],
        multipart: LaneUploadForm,
        response: { 202: Lane },
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
function laneReadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/api/lanes/',
    {
      schema: {
        operationId: 'getLanes',
        summary: 'Lanes of the caller and their groups',
        tags: ['lanes'],
        querystring: LaneListQuery,
        response: { 200: LanePage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { status, page, per_page } = request.query;
      return mapPage(lanePage(ctx, user.id, status, { page, per_page }), (r) => presentLane(ctx, r));
    },
  );

  api.get(
    '/api/lanes/:id',
    {
      schema: {
        operationId: 'getLanesById',
        summary: 'One lane: status, progress, per-sample read counts, top unknown barcodes',
        tags: ['lanes'],
        params: IdParams,
        response: { 200: Lane },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const row = visibleLane(ctx, user.id, request.params.id);
      if (!row) throw errors.notFound('Lane');
      return presentLane(ctx, row);
    },
  );
}
