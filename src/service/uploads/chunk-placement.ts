/**
 * Puts chunk bytes in their final place and checks chunk sizes. Every chunk but the last has
 * the upload's chunk size (learnt from the first such chunk), the last no more; a chunk lives
 * at `index * chunk size` in the upload's file, so completing the upload never copies it.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_FILE_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { openDataFile } from './chunk-receiver';
import type { LiveUpload } from './upload-live';
import { uploadDataFile, uploadDir } from './upload-paths';
import { chunksOf, deleteChunk, markPlaced, type ChunkRow, type UploadRow } from './uploads.store';

/**
 * Checks a chunk's size against the upload; returns the chunk size the upload has after it
 * (learnt from this chunk when it is the first to tell), or null while still unknown.
 */
export function checkChunkSize(upload: UploadRow, known: number | null, idx: number, size: number): number | null {
  const n = upload.total_chunks;
  const isLast = idx === n - 1;
  let c = known;
  if (size === 0) throw errors.validation({ file: 'a chunk must not be empty' }, 'Empty chunk');
  if (!isLast) {
    if (c === null) c = size;
    else if (size !== c) {
      throw errors.validation(
        { file: `chunk ${idx} has ${size} bytes; every chunk but the last must have ${c}` },
        'Inconsistent chunk size',
      );
    }
  } else if (n === 1) c ??= size;
  else if (c !== null && size > c) {
    throw errors.validation(
      { file: `the last chunk (${size} bytes) is larger than the chunk size ${c}` },
      'Last chunk too large',
    );
  }
  if (c !== null) {
    if ((n - 1) * c + 1 > MAX_FILE_BYTES) {
      throw new ApiError('PAYLOAD_TOO_LARGE', 'File exceeds the maximum size of 50 GB');
    }
    const total = upload.total_size;
    if (total !== null && (total <= (n - 1) * c || total > n * c || (isLast && (n - 1) * c + size !== total))) {
      throw errors.validation(
        { total_chunks: `${n} chunks of ${c} bytes cannot make ${total} bytes` },
        'total_chunks disagrees with total_size',
      );
    }
  }
  return c;
}

/** Copies a spool file into the upload's file at `position`. */
export async function copyInto(src: string, fh: FileHandle, position: number): Promise<void> {
  const input = await open(src, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let at = 0;
    for (;;) {
      const { bytesRead } = await input.read(buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      await fh.write(buf, 0, bytesRead, position + at);
      at += bytesRead;
    }
  } finally {
    await input.close();
  }
}

/** sha256 of a recorded chunk's bytes, read back from disk. */
export async function storedChunkHash(ctx: ServiceContext, live: LiveUpload, row: ChunkRow): Promise<string> {
  const path = row.spool ? join(uploadDir(ctx, row.upload_id), row.spool) : uploadDataFile(ctx, row.upload_id);
  const position = row.spool ? 0 : row.idx * (live.chunkSize ?? 0);
  const fh = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    let left = row.size;
    let at = position;
    while (left > 0) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(left, buf.length), at);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      left -= bytesRead;
      at += bytesRead;
    }
    return hash.digest('hex');
  } finally {
    await fh.close();
  }
}

/**
 * Places every chunk that waited in a spool file for the chunk size to become known. A chunk
 * that turns out not to fit is forgotten, so the client's next status check asks for it again.
 */
export function placeSpooled(ctx: ServiceContext, upload: UploadRow, live: LiveUpload): Promise<void> {
  live.placing = live.placing.then(async () => {
    const c = live.chunkSize;
    if (c === null) return;
    const spooled = chunksOf(ctx, upload.id).filter((r) => r.spool !== null);
    if (spooled.length === 0) return;
    const fh = await openDataFile(ctx, upload.id);
    try {
      for (const row of spooled) {
        const path = join(uploadDir(ctx, upload.id), row.spool!);
        try {
          checkChunkSize(upload, c, row.idx, row.size);
        } catch {
          deleteChunk(ctx, upload.id, row.idx);
          rmSync(path, { force: true });
          continue;
        }
        await copyInto(path, fh, row.idx * c);
        markPlaced(ctx, upload.id, row.idx);
        rmSync(path, { force: true });
      }
    } finally {
      await fh.close();
    }
  });
  return live.placing;
}
