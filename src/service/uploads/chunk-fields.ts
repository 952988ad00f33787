/** The multipart fields of POST /api/upload, parsed and checked once (spec fields plus API.md's extras). */
import { MAX_CHUNK_BYTES, MAX_FILE_BYTES } from '../../shared/limits';
import { UploadChunkFields } from '../../shared/service-api/uploads';
import { ApiError, errors } from '../http/api-error';
import { formFields } from '../http/form-fields';
import { ACCEPTED_EXTENSIONS, uploadKindOf, type UploadKind } from './format-sniff';
import { filenameProblem } from './upload-filename';

export interface ChunkFields {
  filename: string;
  kind: UploadKind;
  chunk: number;
  totalChunks: number;
  fileId: string;
  totalSize: number | null;
  checksum: string | null;
  chunkChecksum: string | null;
}

function integer(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,20}$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/** True once the fields that place a chunk have arrived (the file part may come before them). */
export function hasPlacementFields(raw: Record<string, string>): boolean {
  return ['filename', 'chunk', 'total_chunks', 'file_id'].every((k) => raw[k] !== undefined);
}

/**
 * Parses and checks the fields: their shape by the API's schema (UploadChunkFields), then what a
 * schema cannot say; throws VALIDATION_ERROR, INVALID_FORMAT or PAYLOAD_TOO_LARGE.
 */
export function parseChunkFields(form: Record<string, string>): ChunkFields {
  const raw = formFields(UploadChunkFields, form, 'Invalid upload fields');
  const fields: Record<string, string> = {};
  const filename = raw.filename;
  const nameProblem = filenameProblem(filename);
  if (nameProblem) throw errors.validation({ filename: nameProblem }, `Invalid filename: ${nameProblem}`);
  const kind = uploadKindOf(filename);
  if (!kind) {
    throw new ApiError('INVALID_FORMAT', `File type not accepted: expected ${ACCEPTED_EXTENSIONS}`);
  }
  const totalChunks = integer(raw.total_chunks);
  const chunk = integer(raw.chunk);
  if (totalChunks === null || totalChunks < 1) fields.total_chunks = 'must be a positive integer';
  if (chunk === null) fields.chunk = 'must be an integer from 0';
  else if (totalChunks !== null && chunk >= totalChunks) fields.chunk = `must be below total_chunks (${totalChunks})`;
  let totalSize: number | null = null;
  if (raw.total_size !== undefined) {
    totalSize = integer(raw.total_size);
    if (totalSize === null || totalSize < 1) fields.total_size = 'must be a positive integer (bytes)';
  }
  if (Object.keys(fields).length) throw errors.validation(fields, 'Invalid upload fields');
  if (totalSize !== null && totalSize > MAX_FILE_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `File exceeds the maximum size of ${MAX_FILE_BYTES} bytes (50 GB)`);
  }
  if (totalSize !== null && (totalChunks! > totalSize || totalSize > totalChunks! * MAX_CHUNK_BYTES)) {
    throw errors.validation(
      { total_chunks: `cannot hold ${totalSize} bytes in chunks of 1 byte to 50 MB` },
      'total_chunks disagrees with total_size',
    );
  }
  if (totalSize === null && (totalChunks! - 1) * 1 > MAX_FILE_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', 'File exceeds the maximum size of 50 GB');
  }
  return {
    filename,
    kind,
    chunk: chunk!,
    totalChunks: totalChunks!,
    fileId: raw.file_id,
    totalSize,
    checksum: raw.checksum?.toLowerCase() ?? null,
    chunkChecksum: raw.chunk_checksum?.toLowerCase() ?? null,
  };
}
