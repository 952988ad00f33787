/**
 * Viewing an HTML report (a MultiQC report above all) with its scripts running, but walled off
 * from the app and the service (issue 20 item 4). The app asks for a short-lived ticket
 * (`POST /api/data/{id}/view`, with its access token) and shows `GET /api/data/view/{ticket}` in
 * a frame. That answer carries a Content-Security-Policy whose `sandbox allow-scripts` (without
 * `allow-same-origin`) gives the document an opaque origin of its own, whatever frame or tab
 * opens it: its scripts run, but it reads no cookie or storage of the service or the app, and
 * `connect-src 'none'` refuses every fetch, XHR, WebSocket and beacon, so a report cannot call
 * the service (with or without the user's token, which it never sees). Images, styles and
 * fonts come only from the document itself (data: URLs), so nothing leaks through a sub-resource.
 * The tickets are a part of the service (`ctx.parts.reportViews`, report-view-tickets.ts).
 */
import { createReadStream, statSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getDataView, viewDataById } from '../../shared/service-api/endpoints/data';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { dataFilePath } from './data.commands';
import { getDataRow } from './data.store';
import { serve } from '../http/serve-endpoint';

/** The policy of a viewed report (see the header comment). */
export const REPORT_VIEW_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data:',
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

const isHtml = (row: { data_type: string; filename: string }) =>
  row.data_type === 'html' || row.data_type === 'multiqc' || /\.html?$/i.test(row.filename);

/** Registers the ticket and the view routes. */
export function dataViewRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = ctx.parts.reportViews;

  serve(api, viewDataById, async (request, reply) => {
    const user = requireUser(request);
    const { id } = request.params;
    requireAccess(ctx.db, 'data', id, user, 'view');
    const row = getDataRow(ctx, id)!;
    if (!isHtml(row)) throw errors.conflict(`Data file ${id} (${row.filename}) is not an HTML report`);
    const { ticket, expires } = tickets.issue(id);
    return reply.code(201).send({ url: `/api/data/view/${ticket}`, expires: new Date(expires).toISOString() });
  });

  serve(api, getDataView, async (request, reply) => {
    const dataId = tickets.open(request.params.ticket);
    if (dataId === null) throw errors.notFound('Report view (the address has expired: open the report again)');
    if (!getDataRow(ctx, dataId)) throw errors.notFound('Data');
    const path = dataFilePath(ctx, dataId);
    reply.header('content-type', 'text/html; charset=utf-8');
    reply.header('content-security-policy', REPORT_VIEW_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('content-length', String(statSync(path).size));
    return reply.send(createReadStream(path));
  });
}
