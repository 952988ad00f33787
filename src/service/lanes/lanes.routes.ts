/**
 * POST /api/upload/multiplexed (a lane with its annotation), POST /api/data/sheets (a sheet kept
 * as data), GET /api/lanes/ and /api/lanes/{id}.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { inMultipartScope } from '../http/multipart-scope';
import { requireUser } from '../auth/authenticate';
import { mapPage } from '../db/select-page';
import { readLaneForm, SHEET_PART_ONLY } from './lane-form';
import { createLane } from './lanes.commands';
import { presentLane } from './lanes.presenter';
import { lanePage, visibleLane } from './lanes.store';
import { keepSheet } from './sheet-records';
import { presentData } from '../data/data.presenter';
import { postDataSheets } from '../../shared/service-api/endpoints/data';
import { getLanes, getLanesById, postUploadMultiplexed } from '../../shared/service-api/endpoints/lanes';
import { serve } from '../http/serve-endpoint';

/** The lane routes: the multipart uploads (in a scope where multipart bodies are left unread) and the reads. */
export async function laneRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  await inMultipartScope(app, (scope) => {
    laneUploadRoute(scope, ctx);
    sheetRecordRoute(scope, ctx);
  });
  laneReadRoutes(app, ctx);
}

function laneUploadRoute(app: FastifyInstance, ctx: ServiceContext): void {
  serve(app.withTypeProvider<TypeBoxTypeProvider>(), postUploadMultiplexed, async (request, reply) => {
    const user = requireUser(request);
    const form = await readLaneForm(ctx, request);
    try {
      const lane = await createLane(ctx, user, form);
      return reply.status(202).send(presentLane(ctx, lane));
    } finally {
      form.cleanup();
    }
  });
}

function sheetRecordRoute(app: FastifyInstance, ctx: ServiceContext): void {
  serve(app.withTypeProvider<TypeBoxTypeProvider>(), postDataSheets, async (request, reply) => {
    const user = requireUser(request);
    const form = await readLaneForm(ctx, request, SHEET_PART_ONLY);
    try {
      if (!form.annotation) throw errors.validation({ annotation: 'required: the sheet as a file part' });
      const { row, created } = await keepSheet(ctx, user, form.annotation);
      return reply.status(created ? 201 : 200).send(presentData(ctx, row, user));
    } finally {
      form.cleanup();
    }
  });
}

/** The lane reading routes. */
function laneReadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, getLanes, async (request) => {
    const user = requireUser(request);
    const { status, page, per_page } = request.query;
    return mapPage(lanePage(ctx, user.id, status, { page, per_page }), (r) => presentLane(ctx, r));
  });

  serve(api, getLanesById, async (request) => {
    const user = requireUser(request);
    const row = visibleLane(ctx, user.id, request.params.id);
    if (!row) throw errors.notFound('Lane');
    return presentLane(ctx, row);
  });
}
