/** GET /api/annotation/sample and /api/annotation/lane: the annotation templates as xlsx. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { WorkbookBytes } from '../../shared/service-api/annotation';
import { contentDisposition } from '../data/http-range';
import { requireUser } from '../auth/authenticate';
import { loadVocabularies } from '../vocabularies/vocabularies';
import type { TemplateKind } from './template-workbook';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Registers the template downloads. */
export function templateRoutes(app: FastifyInstance): void {
  for (const kind of ['sample', 'lane'] as TemplateKind[]) {
    app.withTypeProvider<TypeBoxTypeProvider>().get(
      `/api/annotation/${kind}`,
      {
        schema: {
          operationId: kind === 'sample' ? 'getAnnotationSample' : 'getAnnotationLane',
          summary: `The ${kind} annotation template (xlsx)`,
          tags: ['annotation'],
          response: { 200: WorkbookBytes },
        },
      },
      async (request, reply) => {
        requireUser(request);
        // exceljs (about 1 s to load on a busy machine) is loaded by the first download, not at start-up.
        const { templateBytes } = await import('./template-workbook');
        const bytes = await templateBytes(kind, loadVocabularies());
        return reply
          .header('content-type', XLSX)
          .header('content-disposition', contentDisposition(`laneway-${kind}-annotation-template.xlsx`))
          .send(bytes);
      },
    );
  }
}
