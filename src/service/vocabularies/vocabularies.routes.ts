/** GET /api/organisms, /api/categories and /api/metadata-fields: the sample vocabularies. */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../identity/authenticate';
import { loadVocabularies } from './vocabularies';

const organism = {
  type: 'object',
  required: ['name', 'common_name', 'taxonomy_id'],
  properties: { name: { type: 'string' }, common_name: { type: 'string' }, taxonomy_id: { type: ['integer', 'null'] } },
};
const category = {
  type: 'object',
  required: ['name', 'description'],
  properties: { name: { type: 'string' }, description: { type: 'string' } },
};
const field = {
  type: 'object',
  required: ['key', 'label', 'required', 'type', 'description', 'rule', 'example'],
  properties: {
    key: { type: 'string' },
    label: { type: 'string' },
    required: { type: 'boolean' },
    lane_only: { type: 'boolean' },
    type: { type: 'string' },
    vocabulary: { type: 'string' },
    description: { type: 'string' },
    rule: { type: 'string' },
    example: { type: 'string' },
  },
};

/** Registers the vocabulary routes. */
export function vocabularyRoutes(app: FastifyInstance): void {
  app.get(
    '/api/organisms',
    {
      schema: {
        summary: 'Organisms a sample may name',
        tags: ['vocabularies'],
        response: { 200: { type: 'array', items: organism } },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().organisms;
    },
  );
  app.get(
    '/api/categories',
    {
      schema: {
        summary: 'Sample categories (the sample type)',
        tags: ['vocabularies'],
        response: { 200: { type: 'array', items: category } },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().categories;
    },
  );
  app.get(
    '/api/metadata-fields',
    {
      schema: {
        summary: 'Sample metadata fields with descriptions and rules',
        tags: ['vocabularies'],
        response: { 200: { type: 'array', items: field } },
      },
    },
    async (request) => {
      requireUser(request);
      return loadVocabularies().fields;
    },
  );
}
