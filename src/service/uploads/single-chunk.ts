/**
 * A file that arrives whole: the first chunk of a new upload whose total_chunks is 1 (issue 21,
 * many small files). The multi-chunk path writes three transactions for it (the upload row, the
 * chunk row, the completion) and makes, flushes, links and removes a folder; here the file is
 * written once to `tmp/`, flushed once, renamed into the content store, and its upload row
 * (already complete), data record and audit entry commit together, with those of the other
 * files flushed in the same turn of the event loop (group-commit.ts). The checks are the
 * same: the format sniff on the first bytes, the chunk's and the file's checksum, total_size,
 * duplicates (announced by the checksum field, and found by the bytes), the quota, a full disk.
 *
 * Until it commits, the upload has no row. So that a request about its file_id meanwhile sees
 * what the row would have shown, the uploads in flight are registered here: another chunk
 * with the same file_id waits for this one to end, GET answers "nothing received yet", and
 * DELETE abandons it (its commit then refuses, as for a multi-chunk upload).
 */
import { rm } from 'node:fs/promises';
import { secondsSince } from '../service-log';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { type DataRow, findVisibleDuplicate, insertDataRow } from '../data/data.store';
import { dataTypeFor } from '../data/data.commands';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { checkQuota } from '../settings/quota';
import type { UploadStatus } from '../../shared/service-api/uploads';
import type { ChunkFields } from './chunk-fields';
import { checkChunkSize } from './chunk-placement';
import { completedRecord } from './upload-complete';
import { moveIntoStore, storeFolderFor } from './single-chunk-files';
import { findUpload, insertCompletedUpload, insertUpload, type UploadRow } from './uploads.store';

/** A one-chunk upload between its first byte and its commit. */
export interface WholeUpload {
  fields: ChunkFields;
  startedAt: number;
  abandoned: boolean;
  committed: boolean;
  /** Ends it: unless committed or abandoned, leaves the row a refused first chunk leaves. */
  end: () => void;
  ended: Promise<void>;
}

const inFlight = new WeakMap<object, Map<string, WholeUpload>>();

function registry(ctx: ServiceContext): Map<string, WholeUpload> {
  let map = inFlight.get(ctx.parts);
  if (!map) inFlight.set(ctx.parts, (map = new Map()));
  return map;
}

const keyOf = (userId: number, fileId: string) => `${userId}\n${fileId}`;

/** The one-chunk upload of this file_id in flight, if any. */
export function wholeInFlight(ctx: ServiceContext, userId: number, fileId: string): WholeUpload | undefined {
  return registry(ctx).get(keyOf(userId, fileId));
}

/** Waits until no one-chunk upload of this file_id is in flight. */
export async function wholeSettled(ctx: ServiceContext, userId: number, fileId: string): Promise<void> {
  for (let w = wholeInFlight(ctx, userId, fileId); w; w = wholeInFlight(ctx, userId, fileId)) await w.ended;
}

/** Whether this chunk may take the one-chunk path: a whole file for a file_id not known yet. */
export function arrivesWhole(ctx: ServiceContext, userId: number, f: ChunkFields): boolean {
  return (
    f.totalChunks === 1 &&
    f.chunk === 0 &&
    !wholeInFlight(ctx, userId, f.fileId) &&
    findUpload(ctx, userId, f.fileId) === undefined
  );
}

/**
 * Starts a one-chunk upload: the checks a new upload gets before any byte is stored (a duplicate
 * announced by the checksum field, the quota), then registers it. Throws the refusal.
 */
export function beginWhole(ctx: ServiceContext, user: AuthUser, f: ChunkFields): WholeUpload {
  if (f.checksum) {
    const dup = findVisibleDuplicate(ctx, user, f.checksum);
    if (dup !== undefined) {
      throw new ApiError('DUPLICATE_FILE', `A file with the same checksum exists (data id ${dup})`, { data_id: dup });
    }
  }
  checkQuota(ctx.db, user.id, f.totalSize ?? 1);
  const map = registry(ctx);
  const key = keyOf(user.id, f.fileId);
  let end!: () => void;
  const ended = new Promise<void>((r) => (end = r));
  const whole: WholeUpload = {
    fields: f,
    startedAt: ctx.clock.now(),
    abandoned: false,
    committed: false,
    ended,
    end: () => {
      if (map.get(key) !== whole) return;
      map.delete(key);
      // A multi-chunk upload's row is written before its first byte and stays when that chunk
      // is refused (bad format, checksum, sizes, a lost connection): the client's status check
      // then shows the upload with nothing received. Written here so that it sees the same.
      if (!whole.committed && !whole.abandoned) {
        const { fileId, filename, totalChunks, totalSize, checksum } = f;
        insertUpload(ctx, {
          user_id: user.id,
          file_id: fileId,
          filename,
          total_chunks: totalChunks,
          total_size: totalSize,
          checksum,
        });
      }
      end();
    },
  };
  map.set(key, whole);
  return whole;
}

/** GET /api/upload/{file_id} while the file is arriving: what the upload's row would say. */
export function wholeStatus(whole: WholeUpload): UploadStatus {
  const f = whole.fields;
  return {
    file_id: f.fileId,
    filename: f.filename,
    total_chunks: f.totalChunks,
    total_size: f.totalSize,
    received_chunks: [],
    complete: false,
    data_id: null,
  };
}

/** The upload row the checks of chunk-placement.ts read (it is written only at the commit). */
function asUploadRow(user: AuthUser, f: ChunkFields): UploadRow {
  return {
    id: 0,
    user_id: user.id,
    file_id: f.fileId,
    filename: f.filename,
    total_chunks: f.totalChunks,
    total_size: f.totalSize,
    checksum: f.checksum,
    chunk_size: null,
    data_id: null,
    complete: 0,
    created: '',
    updated: '',
  };
}

/**
 * Commits a one-chunk upload whose bytes are in `path` (spooled and flushed): checks them, moves
 * them into the store and writes the upload row, the data record and its audit entry in one
 * transaction. `path` is removed when its bytes are not needed.
 */
export async function commitWhole(
  ctx: ServiceContext,
  user: AuthUser,
  whole: WholeUpload,
  got: { path: string; size: number; digest: string },
): Promise<DataRow> {
  const moved = { done: false };
  try {
    return await commitSpooled(ctx, user, whole, got, moved);
  } finally {
    // Before the answer, so that a refused or duplicate upload leaves nothing behind by then.
    if (!moved.done) await rm(got.path, { force: true }).catch(() => undefined);
  }
}

async function commitSpooled(
  ctx: ServiceContext,
  user: AuthUser,
  whole: WholeUpload,
  got: { path: string; size: number; digest: string },
  moved: { done: boolean },
): Promise<DataRow> {
  const f = whole.fields;
  const { size, digest } = got;
  checkChunkSize(asUploadRow(user, f), null, 0, size);
  if (f.chunkChecksum && digest !== f.chunkChecksum) {
    throw new ApiError('CHECKSUM_MISMATCH', 'Chunk 0 does not match its chunk_checksum: re-send it');
  }
  if (f.checksum && f.checksum !== digest) {
    ctx.log(`upload failed: ${f.filename} by ${user.username}: the assembled file's sha256 differs`, {
      event: 'upload.failed',
      level: 'warn',
      user: user.username,
      filename: f.filename,
      bytes: size,
      reason: 'checksum mismatch',
    });
    throw new ApiError(
      'CHECKSUM_MISMATCH',
      `The assembled file's sha256 is ${digest}, not the checksum sent: upload it again (every chunk)`,
    );
  }
  await storeFolderFor(ctx, digest);
  const now = new Date(ctx.clock.now()).toISOString();
  // With the records of the other files flushed in this turn, in one commit (group-commit.ts).
  const outcome = await ctx.parts.groupCommit.run(
    (): { record: DataRow; id: number } | { dup: number } | { row: UploadRow } => {
      // Abandoned (DELETE) while arriving or waiting for the commit: nothing is stored.
      if (whole.abandoned) {
        throw new ApiError(
          'UPLOAD_CONFLICT',
          'The upload was abandoned while chunk 0 was arriving: start it again to send the file',
        );
      }
      // From here to the commit without an await: the duplicate check, the move and the commit
      // see the same database. Move first, commit second: a crash in between leaves a stored
      // file no record names, which the store's sweep removes; a duplicate found leaves the
      // bytes its record already has.
      // Another file of the same group with the same bytes committed its record just before.
      const dup = findVisibleDuplicate(ctx, user, digest);
      if (dup === undefined) {
        moveIntoStore(ctx, got.path, digest);
        moved.done = true;
      }
      // A multi-chunk request with this file_id may have created its row meanwhile.
      const row = findUpload(ctx, user.id, f.fileId);
      if (row) return { row };
      const upload = { user_id: user.id, file_id: f.fileId, filename: f.filename, total_chunks: 1 };
      const facts = { total_size: f.totalSize, checksum: f.checksum, chunk_size: size, created: now };
      if (dup !== undefined) {
        insertCompletedUpload(ctx, { ...upload, ...facts, data_id: dup });
        return { dup };
      }
      const record = insertDataRow(ctx, {
        filename: f.filename,
        dataType: dataTypeFor(f.filename),
        owner: { owner_user_id: user.id, owner_group_id: null },
        source: 'upload',
        checksum: digest,
        size,
      });
      const id = insertCompletedUpload(ctx, { ...upload, ...facts, data_id: record.id });
      audit(ctx, user, 'created', { kind: 'data', id: record.id, name: record.filename }, { size, checksum: digest });
      return { record, id };
    },
  );
  whole.committed = true;
  if ('row' in outcome) {
    if (outcome.row.complete === 1 && outcome.row.data_id !== null) return completedRecord(ctx, outcome.row, user);
    throw new ApiError(
      'UPLOAD_CONFLICT',
      'Another upload with this file_id started while chunk 0 was arriving: ask what has arrived and send the rest again',
    );
  }
  if ('dup' in outcome) {
    throw new ApiError('DUPLICATE_FILE', `A file with the same checksum exists (data id ${outcome.dup})`, {
      data_id: outcome.dup,
    });
  }
  const { record, id } = outcome;
  const seconds = secondsSince(ctx, new Date(whole.startedAt).toISOString());
  ctx.log(`upload completed: ${f.filename} (${size} bytes) by ${user.username} in ${seconds ?? '?'} s`, {
    event: 'upload.completed',
    user: user.username,
    upload_id: id,
    data_id: record.id,
    filename: f.filename,
    bytes: size,
    seconds,
  });
  return record;
}
