/** GET /api/annotation/sample and /api/annotation/lane: the annotation templates as xlsx. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getAnnotationLane, getAnnotationSample } from '../../shared/service-api/endpoints/template';
import { serve } from '../http/serve-endpoint';
import { contentDisposition } from '../data/http-range';
import { requireUser } from '../auth/authenticate';
import { loadVocabularies } from '../vocabularies/vocabularies';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Registers the template downloads. */
export function templateRoutes(app: FastifyInstance): void {
  const templates = [
    ['sample', getAnnotationSample],
    ['lane', getAnnotationLane],
  ] as const;
  for (const [kind, endpoint] of templates) {
    serve(app.withTypeProvider<TypeBoxTypeProvider>(), endpoint, async (request, reply) => {
      requireUser(request);
      // exceljs (about 1 s to load on a busy machine) is loaded by the first download, not at start-up.
      const { templateBytes } = await import('./template-workbook');
      const bytes = await templateBytes(kind, loadVocabularies());
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', contentDisposition(`laneway-${kind}-annotation-template.xlsx`))
        .send(bytes);
    });
  }
}
