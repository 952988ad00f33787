/**
 * Completing an upload: the chunks already sit at their offsets in one file and the prefix
 * hash has followed them in, so completion only hashes what is left, verifies the client's
 * checksum, looks for a duplicate among the data the caller can see, links the file into the
 * content store and commits the data record together with the upload's completion.
 */
import { secondsSince } from '../service-log';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { putBlob } from '../data/content-blobs';
import { type DataRow, findVisibleDuplicate, getDataRow, insertDataRow } from '../data/data.store';
import { dataTypeFor } from '../data/data.commands';
import { ApiError } from '../http/api-error';
import { canReadData } from '../policy/derived-data';
import type { AuthUser } from '../auth/authenticate';
import { advanceHash, dropLive, liveUpload, uploadsAreSynced, type LiveUpload } from './upload-live';
import {
  completedDataFile,
  removeUploadFiles,
  removeUploadFilesLater,
  syncDataFile,
  truncateDataFile,
} from './upload-files';
import { chunksOf, completeUpload, deleteUpload, resetUpload, type UploadRow } from './uploads.store';

/**
 * The data record of an upload that already completed, for a re-sent chunk. An upload that
 * completed as a duplicate points at someone else's record, visible then through a share that
 * may since have been revoked: the record is answered only while the caller may view it.
 * Otherwise the upload is forgotten, so that sending the file again stores the caller's own copy.
 */
export function completedRecord(ctx: ServiceContext, upload: UploadRow, user: AuthUser): DataRow {
  const record = upload.data_id !== null ? getDataRow(ctx, upload.data_id) : undefined;
  if (!record) throw new ApiError('NOT_FOUND', 'The data record of this upload no longer exists');
  if (!canReadData(ctx.db, record.id, user)) {
    deleteUpload(ctx, upload.id);
    throw new ApiError(
      'NOT_FOUND',
      'This upload matched a file that is no longer shared with you: upload the file again to store your own copy',
    );
  }
  return record;
}

/** Completes the upload once (concurrent last chunks share the one completion). */
export function completeIfReady(ctx: ServiceContext, user: AuthUser, upload: UploadRow): Promise<DataRow> {
  const live = liveUpload(ctx, upload.id, upload.chunk_size);
  if (!live.completion) {
    live.completion = assemble(ctx, user, upload, live).finally(() => {
      live.completion = null;
    });
  }
  return live.completion as Promise<DataRow>;
}

async function hashAll(ctx: ServiceContext, live: LiveUpload, n: number): Promise<string> {
  while (live.hashedUpTo < n) {
    const before = live.hashedUpTo;
    await advanceHash(ctx, live);
    if (live.hashedUpTo === before && !live.hashing)
      throw new Error(`upload ${live.id}: chunk ${before} cannot be hashed`);
  }
  return live.hash.copy().digest('hex');
}

async function assemble(ctx: ServiceContext, user: AuthUser, upload: UploadRow, live: LiveUpload): Promise<DataRow> {
  await live.placing;
  const rows = chunksOf(ctx, upload.id);
  if (rows.length !== upload.total_chunks || rows.some((r) => r.spool !== null) || live.chunkSize === null) {
    throw new Error(`upload ${upload.id} is not ready to complete`);
  }
  const size = rows.reduce((sum, r) => sum + r.size, 0);
  // A longer last chunk from an abandoned attempt may have left bytes past the end.
  await truncateDataFile(ctx, upload.id, size);
  const checksum = await hashAll(ctx, live, upload.total_chunks);
  if (upload.checksum && upload.checksum !== checksum) {
    resetUpload(ctx, upload.id);
    await truncateDataFile(ctx, upload.id, 0);
    dropLive(ctx, upload.id);
    ctx.log(`upload ${upload.id} failed: ${upload.filename} by ${user.username}: the assembled file's sha256 differs`, {
      event: 'upload.failed',
      level: 'warn',
      user: user.username,
      upload_id: upload.id,
      filename: upload.filename,
      bytes: size,
      reason: 'checksum mismatch',
    });
    throw new ApiError(
      'CHECKSUM_MISMATCH',
      `The assembled file's sha256 is ${checksum}, not the checksum sent: upload it again (every chunk)`,
    );
  }
  while (live.syncing) await live.syncing;
  if (uploadsAreSynced()) await syncDataFile(ctx, upload.id);
  const dup = findVisibleDuplicate(ctx, user, checksum);
  if (dup !== undefined) {
    completeUpload(ctx, upload.id, dup);
    removeUploadFiles(ctx, upload.id);
    dropLive(ctx, upload.id);
    throw new ApiError('DUPLICATE_FILE', `A file with the same checksum exists (data id ${dup})`, { data_id: dup });
  }
  // Link first, commit second: a crash in between leaves the upload to complete again.
  putBlob(ctx, completedDataFile(ctx, upload.id), checksum, true);
  const record = ctx.db.transaction(() => {
    const r = insertDataRow(ctx, {
      filename: upload.filename,
      dataType: dataTypeFor(upload.filename),
      owner: { owner_user_id: upload.user_id, owner_group_id: null },
      source: 'upload',
      checksum,
      size,
    });
    completeUpload(ctx, upload.id, r.id);
    audit(ctx, user, 'created', { kind: 'data', id: r.id, name: r.filename }, { size, checksum });
    return r;
  })();
  removeUploadFilesLater(ctx, upload.id);
  dropLive(ctx, upload.id);
  const seconds = secondsSince(ctx, upload.created);
  ctx.log(`upload completed: ${upload.filename} (${size} bytes) by ${user.username} in ${seconds ?? '?'} s`, {
    event: 'upload.completed',
    user: user.username,
    upload_id: upload.id,
    data_id: record.id,
    filename: upload.filename,
    bytes: size,
    seconds,
  });
  return record;
}
