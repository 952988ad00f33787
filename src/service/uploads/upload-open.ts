/**
 * Finds or starts the caller's upload for a chunk: refuses a file_id reused with another
 * file, and refuses a duplicate at once when the first chunk carries the file's checksum.
 */
import type { ServiceContext } from '../context';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { findVisibleDuplicate } from '../data/data.store';
import type { ChunkFields } from './chunk-fields';
import { checkQuota } from '../settings/quota';
import {
  deleteUpload,
  findUpload,
  insertUpload,
  receivedBytes,
  updateUploadFacts,
  type UploadRow,
} from './uploads.store';

function conflict(message: string): ApiError {
  return new ApiError('UPLOAD_CONFLICT', message);
}

/** The upload this chunk belongs to, created on its first chunk. */
export function openUpload(ctx: ServiceContext, user: AuthUser, f: ChunkFields): UploadRow {
  let upload = findUpload(ctx, user.id, f.fileId);
  if (upload && upload.complete === 1 && upload.data_id === null) {
    // Its data record was deleted since: the file_id starts a new upload.
    deleteUpload(ctx, upload.id);
    upload = undefined;
  }
  if (upload) {
    if (upload.filename !== f.filename) {
      throw conflict(`file_id ${f.fileId} belongs to an upload of "${upload.filename}"`);
    }
    if (upload.total_chunks !== f.totalChunks) {
      throw conflict(`file_id ${f.fileId} was started with total_chunks ${upload.total_chunks}`);
    }
    if (upload.total_size !== null && f.totalSize !== null && upload.total_size !== f.totalSize) {
      throw conflict(`file_id ${f.fileId} was started with total_size ${upload.total_size}`);
    }
    if (upload.checksum !== null && f.checksum !== null && upload.checksum !== f.checksum) {
      throw conflict(`file_id ${f.fileId} was started with another checksum`);
    }
    if (upload.complete === 0 && ((upload.total_size === null && f.totalSize) || (!upload.checksum && f.checksum))) {
      updateUploadFacts(ctx, upload.id, { total_size: f.totalSize, checksum: f.checksum });
      upload = findUpload(ctx, user.id, f.fileId)!;
    }
    // The quota: what the rest of this file will take when its size is known, else one more chunk.
    if (upload.complete === 0) {
      const size = upload.total_size ?? f.totalSize;
      checkQuota(ctx.db, user.id, size !== null ? Math.max(1, size - receivedBytes(ctx, upload.id)) : 1);
    }
    return upload;
  }
  if (f.checksum) {
    const dup = findVisibleDuplicate(ctx, user, f.checksum);
    if (dup !== undefined) {
      throw new ApiError('DUPLICATE_FILE', `A file with the same checksum exists (data id ${dup})`, { data_id: dup });
    }
  }
  checkQuota(ctx.db, user.id, f.totalSize ?? 1);
  return insertUpload(ctx, {
    user_id: user.id,
    file_id: f.fileId,
    filename: f.filename,
    total_chunks: f.totalChunks,
    total_size: f.totalSize,
    checksum: f.checksum,
  });
}
