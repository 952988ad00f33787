/** The endpoints of service/lanes/lanes.routes.ts. */
import { op } from '../endpoint';
import { Lane, LaneListQuery, LanePage, LaneUploadForm } from '../lanes';
import { IdParams } from '../resource';

export const postUploadMultiplexed = op({
  method: 'POST',
  path: '/api/upload/multiplexed',
  operationId: 'postUploadMultiplexed',
  summary: 'Upload a lane: annotation sheet and multiplexed reads; demultiplexing runs in the background',
  description:
    'Multipart fields: name, annotation (xlsx or csv), file (FASTQ or FASTQ.gz) or file_data_id, optional ' +
    'file2 or file2_data_id (read 2), index1/index2 or index1_data_id/index2_data_id (I1/I2 index reads), ' +
    "mismatches (0 to 2, or per index or end like 1,0), layout (NNNXXXXXXNN, ...XXXXXXNNNN for 3', " +
    'NNNXXXXXXNN...XXXXXXNNNN for both ends), barcode_source (auto, inline, header, index-reads), ' +
    'barcode_read (1 or 2), ignore_warnings=true. Answers 202 with the lane.',
  tags: ['lanes'],
  consumes: ['multipart/form-data'],
  multipart: LaneUploadForm,
  response: { 202: Lane },
});

export const getLanes = op({
  method: 'GET',
  path: '/api/lanes/',
  operationId: 'getLanes',
  summary: 'Lanes of the caller and their groups',
  tags: ['lanes'],
  query: LaneListQuery,
  response: { 200: LanePage },
});

export const getLanesById = op({
  method: 'GET',
  path: '/api/lanes/:id',
  operationId: 'getLanesById',
  summary: 'One lane: status, progress, per-sample read counts, top unknown barcodes',
  tags: ['lanes'],
  params: IdParams,
  response: { 200: Lane },
});
