/** The endpoints of service/data/data.routes.ts. */
import { op } from '../endpoint';
import { BinaryBody, DataListQuery, DataPage, DataRecord } from '../data';
import { ErrorBody } from '../error-body';
import { IdParams } from '../resource';

export const getData = op({
  method: 'GET',
  path: '/api/data/',
  operationId: 'getData',
  summary: 'Data records the caller can see',
  tags: ['data'],
  query: DataListQuery,
  response: { 200: DataPage },
});

export const getDataById = op({
  method: 'GET',
  path: '/api/data/:id',
  operationId: 'getDataById',
  summary: 'One data record',
  tags: ['data'],
  params: IdParams,
  response: { 200: DataRecord },
});

export const getDataByIdDownload = op({
  method: 'GET',
  path: '/api/data/:id/download',
  operationId: 'getDataByIdDownload',
  summary: 'The bytes of a data record (HTTP Range supported)',
  tags: ['data'],
  params: IdParams,
  response: { 200: BinaryBody, 206: BinaryBody, 416: ErrorBody },
});

export const deleteDataById = op({
  method: 'DELETE',
  path: '/api/data/:id',
  operationId: 'deleteDataById',
  summary: 'Delete a data record not used by a sample',
  tags: ['data'],
  params: IdParams,
});
