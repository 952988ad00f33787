/**
 * Puts chunk bytes in their final place and checks chunk sizes. Every chunk but the last has
 * the upload's chunk size (learnt from the first such chunk), the last no more; a chunk lives
 * at `index * chunk size` in the upload's file, so completing the upload never copies it.
 */
import { MAX_FILE_BYTES } from '../../shared/limits';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { placeSpool, removeSpool } from './upload-files';
import type { LiveUpload } from './upload-live';
import { chunksOf, deleteChunk, markPlaced, type UploadRow } from './uploads.store';

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

/**
 * Places every chunk that waited in a spool file for the chunk size to become known. A chunk
 * that turns out not to fit is forgotten, so the client's next status check asks for it again.
 */
export function placeSpooled(ctx: ServiceContext, upload: UploadRow, live: LiveUpload): Promise<void> {
  live.placing = live.placing.then(async () => {
    const c = live.chunkSize;
    if (c === null) return;
    const spooled = chunksOf(ctx, upload.id).filter((r) => r.spool !== null);
    for (const row of spooled) {
      try {
        checkChunkSize(upload, c, row.idx, row.size);
      } catch {
        deleteChunk(ctx, upload.id, row.idx);
        removeSpool(ctx, upload.id, row.spool!);
        continue;
      }
      await placeSpool(ctx, upload.id, row.spool!, row.idx * c);
      markPlaced(ctx, upload.id, row.idx);
      removeSpool(ctx, upload.id, row.spool!);
    }
  });
  return live.placing;
}
