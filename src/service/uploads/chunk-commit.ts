/**
 * POST /api/upload, the committing half: once the whole request has been read, checks the
 * chunk against the upload, records it (the commit point: a chunk is acknowledged only once
 * its bytes are in place and its row is written), and completes the upload when it was the
 * last one missing. The part (chunk-part.ts) says where its bytes went; this module decides
 * what the upload's chunk table makes of them.
 */
import type { ServiceContext } from '../context';
import type { DataRow } from '../data/data.store';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import type { ChunkFields } from './chunk-fields';
import type { ChunkPart, Received } from './chunk-part';
import { checkChunkSize, placeSpooled } from './chunk-placement';
import { SNIFF_BYTES, sniffFor } from './format-sniff';
import { completeIfReady, completedRecord } from './upload-complete';
import { keepSpool, placeSpool, removeSpool, removeUploadFiles, storedChunkDigest } from './upload-files';
import {
  adoptTee,
  advanceHash,
  chunkWritten,
  dropLive,
  holdChunk,
  liveUpload,
  syncInBackground,
  type LiveUpload,
} from './upload-live';
import { openUpload } from './upload-open';
import { commitWhole, wholeSettled } from './single-chunk';
import {
  chunkOf,
  receivedCount,
  recordChunk,
  setChunkHash,
  updateUploadFacts,
  uploadById,
  type UploadRow,
} from './uploads.store';

export type ChunkAnswer =
  | { kind: 'chunk'; body: { file_id: string; received: number; total_chunks: number } }
  | { kind: 'data'; record: DataRow };

function checksumMismatch(idx: number): ApiError {
  return new ApiError('CHECKSUM_MISMATCH', `Chunk ${idx} does not match its chunk_checksum: re-send it`);
}

function startedOver(idx: number): ApiError {
  return new ApiError(
    'UPLOAD_CONFLICT',
    `The upload started over while chunk ${idx} was being re-sent: ask what has arrived and send the rest again`,
  );
}

/**
 * The upload was abandoned (its owner's DELETE, or expiry) while this chunk was being read or
 * placed: its row and folder are gone. Once a 500 on the foreign key (issue 24, found by
 * cancelling an upload in the desktop queue while a chunk was in flight).
 */
function abandonedMeanwhile(ctx: ServiceContext, uploadId: number, idx: number): ApiError {
  // Whatever this chunk wrote after the folder was removed goes too.
  removeUploadFiles(ctx, uploadId);
  dropLive(ctx, uploadId);
  return new ApiError(
    'UPLOAD_CONFLICT',
    `The upload was abandoned while chunk ${idx} was arriving: start it again to send the file`,
  );
}

const gone = (idx: number) => Object.assign(new Error(`chunk ${idx} is gone`), { code: 'ENOENT' });

/** Answers a re-sent chunk: identical bytes are acknowledged again, others refused. */
async function compareChunk(ctx: ServiceContext, live: LiveUpload, uploadId: number, idx: number, digest: string) {
  const row = chunkOf(ctx, uploadId, idx);
  // Gone since this re-send started: the upload completed, or started over (issue 24).
  if (!row) throw gone(idx);
  let stored = row.sha256;
  if (stored === null) {
    await live.placing;
    const placed = chunkOf(ctx, uploadId, idx);
    if (!placed) throw gone(idx);
    const position = placed.idx * (live.chunkSize ?? 0);
    stored = await storedChunkDigest(ctx, uploadId, { spool: placed.spool, position, size: placed.size });
    setChunkHash(ctx, uploadId, idx, stored);
  }
  if (stored !== digest) {
    throw new ApiError('UPLOAD_CONFLICT', `Chunk ${idx} was already received with other bytes`);
  }
}

/** Records a chunk, learning the chunk size from it when it is the first to tell. */
function record(
  ctx: ServiceContext,
  upload: UploadRow,
  live: LiveUpload,
  chunk: { idx: number; size: number; sha256: string | null; spool: string | null },
  chunkSize: number | null,
): boolean {
  const learnt = live.chunkSize === null && chunkSize !== null;
  const recorded = ctx.db.transaction(() => {
    if (!uploadById(ctx, upload.id)) return false;
    if (learnt) updateUploadFacts(ctx, upload.id, { chunk_size: chunkSize });
    recordChunk(ctx, { upload_id: upload.id, ...chunk });
    return true;
  })();
  if (!recorded) throw abandonedMeanwhile(ctx, upload.id, chunk.idx);
  if (learnt) live.chunkSize = chunkSize;
  return learnt;
}

/** Settles a chunk that was spooled: compare, place or keep it aside until the size is known. */
async function settleSpool(
  ctx: ServiceContext,
  upload: UploadRow,
  live: LiveUpload,
  f: ChunkFields,
  part: ChunkPart,
  got: { digest: string; sink: { size: number } },
): Promise<boolean> {
  const idx = f.chunk;
  const { digest } = got;
  const size = got.sink.size;
  await chunkWritten(live, idx);
  if (chunkOf(ctx, upload.id, idx)) {
    part.discard();
    await compareChunk(ctx, live, upload.id, idx, digest);
    return false;
  }
  if (f.chunkChecksum && digest !== f.chunkChecksum) throw checksumMismatch(idx);
  const c = checkChunkSize(upload, live.chunkSize, idx, size);
  const name = keepSpool(ctx, upload.id, part.takeSpool());
  if (c === null) {
    // The last chunk before any other: it waits in the upload's folder for the chunk size.
    record(ctx, upload, live, { idx, size, sha256: digest, spool: name }, null);
    return false;
  }
  const release = holdChunk(live, idx);
  try {
    await placeSpool(ctx, upload.id, name, idx * c);
    return record(ctx, upload, live, { idx, size, sha256: digest, spool: null }, c);
  } finally {
    removeSpool(ctx, upload.id, name);
    release();
  }
}

/** The upload as it is now: the one the part opened, read again (it may have moved on), or opened now. */
function currentUpload(ctx: ServiceContext, user: AuthUser, got: Received, f: ChunkFields): UploadRow {
  const opened = 'upload' in got ? got.upload : null;
  const now = opened && uploadById(ctx, opened.id);
  // Abandoned while this chunk arrived: its bytes went to that upload's folder, which is gone.
  // Opening a new upload here recorded a chunk whose bytes it never had.
  if (opened && !now && opened.complete === 0) throw abandonedMeanwhile(ctx, opened.id, f.chunk);
  // Gone, or completed with its record deleted since: the file_id starts anew.
  if (!now || (now.complete === 1 && now.data_id === null)) return openUpload(ctx, user, f);
  return now;
}

/**
 * Finishes one chunk after its request has been read. Its fields were parsed once: when its
 * file part started (`part.fields`), or, when the file came first, after the request (`late`).
 */
export async function commitChunk(
  ctx: ServiceContext,
  user: AuthUser,
  part: ChunkPart,
  late: ChunkFields | null = null,
): Promise<ChunkAnswer> {
  try {
    const got = part.received;
    if (got.mode === 'refused') throw got.error;
    const f = part.fields ?? late;
    if (!f) throw new Error('a chunk was committed without its fields');
    if (got.mode !== 'complete') {
      if (got.sink.truncated) throw new ApiError('PAYLOAD_TOO_LARGE', 'Chunk exceeds the maximum chunk size of 50 MB');
      if (got.sink.problem) throw got.sink.problem;
    }
    if (got.mode === 'whole') {
      const record = await commitWhole(ctx, user, got.whole, {
        path: part.takeSpool(),
        size: got.sink.size,
        digest: got.digest,
      });
      part.discard();
      return { kind: 'data', record };
    }
    // Fields that came after the file: a one-chunk upload of this file_id may be in flight.
    if (!part.fields) await wholeSettled(ctx, user.id, f.fileId);
    const upload = currentUpload(ctx, user, got, f);
    if (upload.complete === 1) {
      part.discard();
      return { kind: 'data', record: completedRecord(ctx, upload, user) };
    }
    const live = liveUpload(ctx, upload.id, upload.chunk_size);
    if (got.mode === 'spool' && !got.upload && f.chunk === 0) {
      const late = sniffFor(f.kind, f.chunk === f.totalChunks - 1)(got.sink.head, got.sink.size <= SNIFF_BYTES);
      if (late) throw late;
    }
    let learnt = false;
    if (got.mode === 'complete') throw startedOver(f.chunk);
    if (got.mode === 'compare') {
      try {
        await compareChunk(ctx, live, upload.id, f.chunk, got.digest);
      } catch (err) {
        // The upload completed (and its chunks went) while this re-send was being read.
        const now = uploadById(ctx, upload.id);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (now?.complete === 1) return { kind: 'data', record: completedRecord(ctx, now, user) };
        // The upload started over (its last chunk failed the checksum) while this re-send was
        // being read: its bytes were only compared, never stored. Once a 500 (issue 24).
        throw startedOver(f.chunk);
      }
    } else if (got.mode === 'direct') {
      const size = got.sink.size;
      const c = checkChunkSize(upload, live.chunkSize, f.chunk, size);
      if (f.chunkChecksum && got.digest !== f.chunkChecksum) throw checksumMismatch(f.chunk);
      learnt = record(ctx, upload, live, { idx: f.chunk, size, sha256: got.digest, spool: null }, c);
      const tee = part.takeTee();
      if (tee) adoptTee(live, tee, f.chunk);
      part.recorded();
    } else {
      learnt = await settleSpool(ctx, upload, live, f, part, got);
    }
    part.discard();
    if (learnt) await placeSpooled(ctx, upload, live);
    const received = receivedCount(ctx, upload.id);
    // The chunk that completes the upload is flushed by the completion itself: flushing it in
    // the background as well was a second fdatasync per small file (issue 21).
    if (received !== upload.total_chunks) void syncInBackground(ctx, live);
    advanceHash(ctx, live).catch((err: unknown) => ctx.log(`upload ${upload.id}: hashing failed: ${String(err)}`));
    if (received === upload.total_chunks) {
      return { kind: 'data', record: await completeIfReady(ctx, user, uploadById(ctx, upload.id)!) };
    }
    return { kind: 'chunk', body: { file_id: f.fileId, received, total_chunks: upload.total_chunks } };
  } catch (err) {
    part.discard();
    throw err;
  }
}
