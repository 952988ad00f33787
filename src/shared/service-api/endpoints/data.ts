/** The endpoints of service/data/data.routes.ts. */
import { op } from '../endpoint';
import { BinaryBody, DataListQuery, DataPage, DataRecord, ViewTicket, ViewTicketParams } from '../data';
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

export const viewDataById = op({
  method: 'POST',
  path: '/api/data/:id/view',
  operationId: 'viewDataById',
  summary: 'A short-lived address that shows an HTML report with its scripts, sandboxed',
  description:
    'For HTML data records (QC and MultiQC reports). The address serves the report under a ' +
    'Content-Security-Policy with `sandbox allow-scripts` and `connect-src none`: its scripts run ' +
    'in an opaque origin that can reach neither the service nor the app. It works for five minutes.',
  tags: ['data'],
  params: IdParams,
  response: { 201: ViewTicket },
  errors: ['NOT_FOUND', 'CONFLICT'],
});

export const getDataView = op({
  method: 'GET',
  path: '/api/data/view/:ticket',
  operationId: 'getDataView',
  summary: 'An HTML report opened by a view ticket, sandboxed',
  tags: ['data'],
  security: [],
  params: ViewTicketParams,
  response: { 200: BinaryBody },
  errors: ['NOT_FOUND'],
});
