/**
 * The data area of the service: chunked uploads, data records, samples, vocabularies,
 * annotation templates, lanes and the samples of projects. Multipart bodies are left unread
 * by fastify in this scope: the upload routes stream them with busboy themselves.
 */
import type { FastifyInstance } from 'fastify';
import { templateRoutes } from '../annotation/template.routes';
import type { ServiceContext } from '../context';
import { startUploadMaintenance } from '../uploads/upload-maintenance';
import { laneRoutes, laneUploadRoute } from '../lanes/lanes.routes';
import { resumeLanes, stopLanes } from '../lanes/lane-runner';
import { sampleRoutes } from '../samples/samples.routes';
import { uploadRoutes } from '../uploads/uploads.routes';
import { vocabularyRoutes } from '../vocabularies/vocabularies.routes';
import { dataRoutes } from './data.routes';

/** Registers every route of the data area and starts upload maintenance. */
export async function registerData(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
    uploadRoutes(scope, ctx);
    laneUploadRoute(scope, ctx);
  });
  dataRoutes(app, ctx);
  vocabularyRoutes(app);
  sampleRoutes(app, ctx);
  laneRoutes(app, ctx);
  templateRoutes(app);
  await startUploadMaintenance(ctx);
  ctx.onClose(() => stopLanes(ctx));
  resumeLanes(ctx);
}
