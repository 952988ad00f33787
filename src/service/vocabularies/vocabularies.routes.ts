/** GET /api/organisms, /api/categories and /api/metadata-fields: the sample vocabularies. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import { requireUser } from '../auth/authenticate';
import { loadVocabularies } from './vocabularies';
import { getCategories, getMetadataFields, getOrganisms } from '../../shared/service-api/endpoints/vocabularies';
import { serve } from '../http/serve-endpoint';

/** Registers the vocabulary routes. */
export function vocabularyRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  serve(api, getOrganisms, async (request) => {
    requireUser(request);
    return loadVocabularies().organisms;
  });
  serve(api, getCategories, async (request) => {
    requireUser(request);
    return loadVocabularies().categories;
  });
  serve(api, getMetadataFields, async (request) => {
    requireUser(request);
    return loadVocabularies().fields;
  });
}
