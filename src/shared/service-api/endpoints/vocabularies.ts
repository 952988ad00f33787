/** The endpoints of service/vocabularies/vocabularies.routes.ts. */
import { op } from '../endpoint';
import { CategoryList, MetadataFieldList, OrganismList } from '../vocabularies';

export const getOrganisms = op({
  method: 'GET',
  path: '/api/organisms',
  operationId: 'getOrganisms',
  summary: 'Organisms a sample may name',
  tags: ['vocabularies'],
  response: { 200: OrganismList },
});

export const getCategories = op({
  method: 'GET',
  path: '/api/categories',
  operationId: 'getCategories',
  summary: 'Sample categories (the sample type)',
  tags: ['vocabularies'],
  response: { 200: CategoryList },
});

export const getMetadataFields = op({
  method: 'GET',
  path: '/api/metadata-fields',
  operationId: 'getMetadataFields',
  summary: 'Sample metadata fields with descriptions and rules',
  tags: ['vocabularies'],
  response: { 200: MetadataFieldList },
});
