/** GET /api/organisms, /api/categories and /api/metadata-fields: the sample vocabularies. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { CategoryList, MetadataFieldList, OrganismList } from '../../shared/service-api/vocabularies';
import { requireUser } from '../auth/authenticate';
import { loadVocabularies } from './vocabularies';

/** Registers the vocabulary routes. */
export function vocabularyRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/api/organisms',
    {
      schema: {
        operationId: 'getOrganisms',
        summary: 'Organisms a sample may name',
        tags: ['vocabularies'],
        response: { 200: OrganismList },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().organisms;
    },
  );
  api.get(
    '/api/categories',
    {
      schema: {
        operationId: 'getCategories',
        summary: 'Sample categories (the sample type)',
        tags: ['vocabularies'],
        response: { 200: CategoryList },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().categories;
    },
  );
  api.get(
    '/api/metadata-fields',
    {
      schema: {
        operationId: 'getMetadataFields',
        summary: 'Sample metadata fields with descriptions and rules',
        tags: ['vocabularies'],
        response: { 200: MetadataFieldList },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().fields;
    },
  );
}
