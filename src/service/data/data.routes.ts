/** Data records: list, read, download (with Range) and delete, through the policy. */
import { createReadStream, statSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { ApiError } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { dataFilePath, deleteData } from './data.commands';
import { dataViewRoutes } from './data-view.routes';
import { presentData } from './data.presenter';
import { dataPage, getDataRow } from './data.store';
import { contentDisposition, parseRange } from './http-range';
import { deleteDataById, getData, getDataById, getDataByIdDownload } from '../../shared/service-api/endpoints/data';
import { serve } from '../http/serve-endpoint';

/** Registers /api/data routes. */
export function dataRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  dataViewRoutes(app, ctx);
  serve(api, getData, async (request) => {
    const user = requireUser(request);
    const { page, per_page, ...filter } = request.query;
    return mapPage(dataPage(ctx, user, filter, { page, per_page }), (r) => presentData(ctx, r, user));
  });

  serve(api, getDataById, async (request) => {
    const user = requireUser(request);
    const { id } = request.params;
    requireAccess(ctx.db, 'data', id, user, 'view');
    return presentData(ctx, getDataRow(ctx, id)!, user);
  });

  serve(api, getDataByIdDownload, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params;
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
      const body = new ApiError('RANGE_NOT_SATISFIABLE', `Range not satisfiable: the file has ${size} bytes`).toBody();
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
  });

  serve(api, deleteDataById, async (request, reply) => {
    deleteData(ctx, requireUser(request), request.params.id);
    return reply.status(204).send();
  });
}
