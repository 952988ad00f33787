/** The endpoints of service/data/data.routes.ts. */
import { op } from '../endpoint';
import {
  BinaryBody,
  DataListQuery,
  DataPage,
  DataRecord,
  SheetRecordForm,
  ViewTicket,
  ViewTicketParams,
} from '../data';
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

export const postDataSheets = op({
  method: 'POST',
  path: '/api/data/sheets',
  operationId: 'postDataSheets',
  summary: 'Keep an annotation sheet as a data record (for the Demultiplexing pipeline)',
  description:
    'Multipart field `annotation`: an xlsx, csv, tsv or txt sheet of at most 20 MiB with Sample Name and ' +
    'Barcode columns, checked by the rules a demultiplexing run applies (errors answer INVALID_ANNOTATION ' +
    'with their rows). Answers 201 with the new record, or 200 with the record the caller can already see ' +
    'that holds the same bytes. Its data_type is its extension (xlsx, csv, tsv, txt).',
  tags: ['data'],
  consumes: ['multipart/form-data'],
  multipart: SheetRecordForm,
  response: { 200: DataRecord, 201: DataRecord },
  errors: ['INVALID_ANNOTATION', 'PAYLOAD_TOO_LARGE'],
});
