/** The endpoints of service/pipelines/pipelines.routes.ts. */
import { op } from '../endpoint';
import { Pipeline, PipelineList, PipelineVersion } from '../pipelines';
import { IdParams } from '../resource';

export const getPipelines = op({
  method: 'GET',
  path: '/api/pipelines',
  operationId: 'getPipelines',
  summary: 'The pipeline catalogue (a bare array)',
  tags: ['pipelines'],
  response: { 200: PipelineList },
});

export const getPipelinesById = op({
  method: 'GET',
  path: '/api/pipelines/:id',
  operationId: 'getPipelinesById',
  summary: 'One pipeline with its versions',
  tags: ['pipelines'],
  params: IdParams,
  response: { 200: Pipeline },
});

export const getPipelinesVersionsById = op({
  method: 'GET',
  path: '/api/pipelines/versions/:id',
  operationId: 'getPipelinesVersionsById',
  summary: 'One pipeline version: parameters, requirements, can_run',
  tags: ['pipelines'],
  params: IdParams,
  response: { 200: PipelineVersion },
});
