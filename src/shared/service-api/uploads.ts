/**
 * Chunked uploads: POST /api/upload (multipart, one chunk per request) and
 * GET /api/upload/{file_id} (what has arrived, to resume).
 */
import { Type, type Static } from 'typebox';
import { DataRecord } from './data';
import { FilePart, NullableInteger } from './resource';

/**
 * The text fields of the multipart form of POST /api/upload, beside the `file` part: the spec's
 * fields plus API.md's optional total_size, checksum (sha256 of the whole file) and
 * chunk_checksum (sha256 of this chunk). The service parses them itself, once (uploads/chunk-fields.ts).
 */
const WHOLE_NUMBER = '^\\s*[0-9]{1,20}\\s*$';
const SHA256 = '^[0-9a-fA-F]{64}$';
/** Each field's description is also the rule a refusal names (VALIDATION_ERROR's `fields`). */
const chunkFields = {
  filename: Type.String({
    minLength: 1,
    description: 'the file name with its extension (.fastq, .fq, .fastq.gz, .fq.gz)',
  }),
  chunk: Type.String({ pattern: WHOLE_NUMBER, description: 'must be an integer from 0 (the index of this chunk)' }),
  total_chunks: Type.String({ pattern: WHOLE_NUMBER, description: 'must be a positive integer' }),
  file_id: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[^\\u0000-\\u001f\\u007f]+$',
    description: 'must be 1-200 characters without control characters',
  }),
  total_size: Type.Optional(
    Type.String({ pattern: WHOLE_NUMBER, description: 'must be a positive integer (bytes of the whole file)' }),
  ),
  checksum: Type.Optional(
    Type.String({ pattern: SHA256, description: 'must be a sha256 in hex (64 characters) of the whole file' }),
  ),
  chunk_checksum: Type.Optional(
    Type.String({ pattern: SHA256, description: 'must be a sha256 in hex (64 characters) of this chunk' }),
  ),
};
export const UploadChunkFields = Type.Object(chunkFields);
export type UploadChunkFields = Static<typeof UploadChunkFields>;

/** The whole multipart form of POST /api/upload, as the OpenAPI document shows it. */
export const UploadChunkForm = Type.Object({ ...chunkFields, file: FilePart });

/** The answer to an accepted chunk that does not complete the file. */
export const UploadChunkAck = Type.Object({
  file_id: Type.String(),
  received: Type.Integer(),
  total_chunks: Type.Integer(),
});
export type UploadChunkAck = Static<typeof UploadChunkAck>;

/** The answer to POST /api/upload: an acknowledgement, or the data record once the file is whole. */
export const UploadChunkResponse = Type.Union([UploadChunkAck, DataRecord]);
export type UploadChunkResponse = Static<typeof UploadChunkResponse>;

export const UploadFileIdParams = Type.Object({ file_id: Type.String({ maxLength: 200 }) });
export type UploadFileIdParams = Static<typeof UploadFileIdParams>;

/** GET /api/upload/{file_id}. */
export const UploadStatus = Type.Object({
  file_id: Type.String(),
  filename: Type.String(),
  total_chunks: Type.Integer(),
  total_size: Type.Optional(NullableInteger),
  received_chunks: Type.Array(Type.Integer()),
  complete: Type.Boolean(),
  data_id: NullableInteger,
});
export type UploadStatus = Static<typeof UploadStatus>;
