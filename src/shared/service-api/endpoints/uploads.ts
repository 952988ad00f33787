/** The endpoints of service/uploads/uploads.routes.ts. */
import { op } from '../endpoint';
import { UploadChunkForm, UploadChunkResponse, UploadFileIdParams, UploadStatus } from '../uploads';

export const postUpload = op({
  method: 'POST',
  path: '/api/upload',
  operationId: 'postUpload',
  summary: 'Upload one chunk of a FASTQ file (multipart: file, filename, chunk, total_chunks, file_id)',
  description:
    'Optional fields: total_size (bytes), checksum (sha256 of the whole file; with the first chunk a ' +
    'duplicate is refused before any bytes are stored) and chunk_checksum (sha256 of this chunk). Chunks may ' +
    'come in any order, concurrently, and be re-sent. Each accepted chunk answers {file_id, received, ' +
    'total_chunks}; the chunk that completes the file answers with the data record.',
  tags: ['uploads'],
  consumes: ['multipart/form-data'],
  multipart: UploadChunkForm,
  response: { 200: UploadChunkResponse },
});

export const getUploadByFileId = op({
  method: 'GET',
  path: '/api/upload/:file_id',
  operationId: 'getUploadByFileId',
  summary: 'What the service holds of a chunked upload, to resume it',
  tags: ['uploads'],
  params: UploadFileIdParams,
  response: { 200: UploadStatus },
});

export const deleteUploadByFileId = op({
  method: 'DELETE',
  path: '/api/upload/:file_id',
  operationId: 'deleteUploadByFileId',
  summary: 'Abandon an unfinished upload: its chunks and bytes are deleted at once (they count to the quota)',
  description: 'A completed upload is not abandoned (409): delete its data record instead.',
  tags: ['uploads'],
  params: UploadFileIdParams,
});
