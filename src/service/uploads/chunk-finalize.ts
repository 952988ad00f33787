/**
 * POST /api/upload, the committing half: once the whole request has been read, checks the
 * chunk against the upload, records it (the commit point: a chunk is acknowledged only once
 * its bytes are in place and its row is written), and completes the upload when it was the
 * last one missing.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ServiceContext } from '../context';
import type { DataRow } from '../data/data.store';
import { ApiError, errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { checkChunkSize, copyInto, placeSpooled, storedChunkHash } from './chunk-placement';
import { discardPart, openDataFile, sniffFor, type PartOutcome } from './chunk-receiver';
import { SNIFF_BYTES } from './format-sniff';
import { parseChunkFields, type ChunkFields } from './upload-fields';
import { completeIfReady, completedRecord } from './upload-complete';
import { advanceHash, liveUpload, syncInBackground, type LiveUpload } from './upload-live';
import { openUpload } from './upload-open';
import { uploadDir } from './upload-paths';
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

const PLACEMENT: Array<keyof ChunkFields> = ['filename', 'chunk', 'totalChunks', 'fileId'];

function checksumMismatch(idx: number): ApiError {
  return new ApiError('CHECKSUM_MISMATCH', `Chunk ${idx} does not match its chunk_checksum: re-send it`);
}

/** Answers a re-sent chunk: identical bytes are acknowledged again, others refused. */
async function compareChunk(ctx: ServiceContext, live: LiveUpload, uploadId: number, idx: number, digest: string) {
  const row = chunkOf(ctx, uploadId, idx);
  // Gone since this re-send started: the upload completed, or started over (issue 24).
  if (!row) throw Object.assign(new Error(`chunk ${idx} is gone`), { code: 'ENOENT' });
  let stored = row.sha256;
  if (stored === null) {
    await live.placing;
    const placed = chunkOf(ctx, uploadId, idx);
    if (!placed) throw Object.assign(new Error(`chunk ${idx} is gone`), { code: 'ENOENT' });
    stored = await storedChunkHash(ctx, live, placed);
    setChunkHash(ctx, uploadId, idx, stored);
  }
  if (stored !== digest) {
    throw new ApiError('UPLOAD_CONFLICT', `Chunk ${idx} was already received with other bytes`);
  }
}

/** Records a chunk, learning the chunk size from it when it is the first to tell. */
function commitChunk(
  ctx: ServiceContext,
  upload: UploadRow,
  live: LiveUpload,
  idx: number,
  size: number,
  sha256: string | null,
  spool: string | null,
  chunkSize: number | null,
): boolean {
  const learnt = live.chunkSize === null && chunkSize !== null;
  ctx.db.transaction(() => {
    if (learnt) updateUploadFacts(ctx, upload.id, { chunk_size: chunkSize });
    recordChunk(ctx, { upload_id: upload.id, idx, size, sha256, spool });
  })();
  if (learnt) live.chunkSize = chunkSize;
  return learnt;
}

/** Settles a chunk that was spooled: compare, place or keep it aside until the size is known. */
async function settleSpool(
  ctx: ServiceContext,
  upload: UploadRow,
  live: LiveUpload,
  f: ChunkFields,
  part: PartOutcome,
) {
  const idx = f.chunk;
  for (let pending = live.inflight.get(idx); pending; pending = live.inflight.get(idx)) await pending;
  const digest = part.chunkHash!.digest('hex');
  if (chunkOf(ctx, upload.id, idx)) {
    discardPart(part);
    await compareChunk(ctx, live, upload.id, idx, digest);
    return false;
  }
  if (f.chunkChecksum && digest !== f.chunkChecksum) throw checksumMismatch(idx);
  const size = part.sink!.size;
  const c = checkChunkSize(upload, live.chunkSize, idx, size);
  if (c === null) {
    // The last chunk before any other: it waits in the upload's folder for the chunk size.
    let path = part.spoolPath!;
    if (dirname(path) !== uploadDir(ctx, upload.id)) {
      // The file part came before the fields, so it was spooled before the upload had a folder;
      // the upload's first chunk may be this one, so its folder may not exist yet.
      mkdirSync(uploadDir(ctx, upload.id), { recursive: true });
      const moved = join(uploadDir(ctx, upload.id), basename(path));
      renameSync(path, moved);
      path = moved;
    }
    commitChunk(ctx, upload, live, idx, size, digest, basename(path), null);
    part.spoolPath = null;
    return false;
  }
  let done!: () => void;
  live.inflight.set(idx, new Promise<void>((r) => (done = r)));
  try {
    const fh = await openDataFile(ctx, upload.id);
    try {
      await copyInto(part.spoolPath!, fh, idx * c);
    } finally {
      await fh.close();
    }
    rmSync(part.spoolPath!, { force: true });
    part.spoolPath = null;
    return commitChunk(ctx, upload, live, idx, size, digest, null, c);
  } finally {
    live.inflight.delete(idx);
    done();
  }
}

/** Finishes one POST /api/upload after its body has been read. */
export async function finishChunk(
  ctx: ServiceContext,
  user: AuthUser,
  raw: Record<string, string>,
  part: PartOutcome | null,
  problem: ApiError | null,
): Promise<ChunkAnswer> {
  if (!part) throw problem ?? errors.validation({ file: 'required' }, 'The chunk has no file part');
  try {
    if (problem) throw problem;
    if (part.mode === 'refused') throw part.error!;
    const f = parseChunkFields(raw);
    if (part.fields && PLACEMENT.some((k) => part.fields![k] !== f[k])) {
      throw errors.validation({ body: 'a field was sent twice with different values' }, 'Conflicting fields');
    }
    if (part.sink?.truncated) throw new ApiError('PAYLOAD_TOO_LARGE', 'Chunk exceeds the maximum chunk size of 50 MB');
    if (part.sink?.problem) throw part.sink.problem;
    const upload = openUpload(ctx, user, f);
    if (upload.complete === 1) {
      discardPart(part);
      return { kind: 'data', record: completedRecord(ctx, upload, user) };
    }
    const live = part.live ?? liveUpload(ctx, upload.id, upload.chunk_size);
    if (!part.upload && f.chunk === 0) {
      const late = sniffFor(f.kind, f.chunk === f.totalChunks - 1)(part.sink!.head, part.sink!.size <= SNIFF_BYTES);
      if (late) throw late;
    }
    let learnt = false;
    if (part.mode === 'compare') {
      try {
        await compareChunk(ctx, live, upload.id, f.chunk, part.chunkHash!.digest('hex'));
      } catch (err) {
        // The upload completed (and its chunks went) while this re-send was being read.
        const now = uploadById(ctx, upload.id);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (now?.complete === 1) return { kind: 'data', record: completedRecord(ctx, now, user) };
        // The upload started over (its last chunk failed the checksum) while this re-send was
        // being read: its bytes were only compared, never stored. Once a 500 (issue 24).
        throw new ApiError(
          'UPLOAD_CONFLICT',
          `The upload started over while chunk ${f.chunk} was being re-sent: ask what has arrived and send the rest again`,
        );
      }
    } else if (part.mode === 'direct') {
      const size = part.sink!.size;
      const c = checkChunkSize(upload, live.chunkSize, f.chunk, size);
      const digest = part.chunkHash?.digest('hex') ?? null;
      if (f.chunkChecksum && digest !== f.chunkChecksum) throw checksumMismatch(f.chunk);
      learnt = commitChunk(ctx, upload, live, f.chunk, size, digest, null, c);
      if (part.tee) {
        live.hash = part.tee;
        live.hashedUpTo = f.chunk + 1;
        live.teeing = false;
        part.tee = null;
      }
      part.release();
      part.release = () => {};
    } else {
      learnt = await settleSpool(ctx, upload, live, f, part);
    }
    discardPart(part);
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
    discardPart(part);
    throw err;
  }
}
