/** The endpoints of service/samples/samples.routes.ts. */
import { op } from '../endpoint';
import { IdParams } from '../resource';
import { NewSampleBody, Sample, SampleChangesBody, SampleListQuery, SamplePage } from '../samples';

export const postSamples = op({
  method: 'POST',
  path: '/api/samples/',
  operationId: 'postSamples',
  summary: 'Create a sample from uploaded reads (read1 required, read2 for paired-end)',
  tags: ['samples'],
  body: NewSampleBody,
  response: { 201: Sample },
});

export const getSamples = op({
  method: 'GET',
  path: '/api/samples/',
  operationId: 'getSamples',
  summary: 'Samples the caller can see, filtered',
  tags: ['samples'],
  query: SampleListQuery,
  response: { 200: SamplePage },
});

export const getSamplesById = op({
  method: 'GET',
  path: '/api/samples/:id',
  operationId: 'getSamplesById',
  summary: 'One sample with its data',
  tags: ['samples'],
  params: IdParams,
  response: { 200: Sample },
});

export const deleteSamplesById = op({
  method: 'DELETE',
  path: '/api/samples/:id',
  operationId: 'deleteSamplesById',
  summary: 'Delete a sample (its owner or an admin of its group)',
  tags: ['samples'],
  params: IdParams,
});

const sampleChanges = {
  path: '/api/samples/:id',
  summary: 'Rename a sample or replace its metadata (needs edit permission)',
  tags: ['samples'],
  params: IdParams,
  body: SampleChangesBody,
  response: { 200: Sample },
} as const;

export const putSamplesById = op({ method: 'PUT', operationId: 'putSamplesById', ...sampleChanges });

export const patchSamplesById = op({ method: 'PATCH', operationId: 'patchSamplesById', ...sampleChanges });
