/**
 * Keeping the upload area tidy across crashes and time: at start, leftovers of requests that
 * died with the process are removed and uploads whose chunks had all arrived are completed;
 * hourly, unfinished uploads idle for longer than the admin's expiry (`upload_expiry_hours`,
 * 72 by default) are deleted with their chunks.
 */
import type { ServiceContext } from '../context';
import { sweepUnreferencedBlobs } from '../data/content-blobs';
import { toAuthUser } from '../auth/authenticate';
import { userById } from '../auth/users.store';
import { placeSpooled } from './chunk-placement';
import { completeIfReady } from './upload-complete';
import { dropLive, liveUpload } from './upload-live';
import { setting } from '../settings/settings.store';
import { removeUploadFiles, sweepLeftovers } from './upload-files';
import { allUploads, chunksOf, deleteUpload, uploadsIdleSince } from './uploads.store';

const BLOB_GRACE_MS = 24 * 60 * 60 * 1000;

/** Cleans up after a crash and completes uploads that only lacked their completion. */
export async function recoverUploads(ctx: ServiceContext): Promise<void> {
  const uploads = allUploads(ctx);
  const spools = new Map<number, Set<string>>();
  for (const upload of uploads) {
    const names = chunksOf(ctx, upload.id).flatMap((r) => (r.spool !== null ? [r.spool] : []));
    if (upload.complete === 0) spools.set(upload.id, new Set(names));
  }
  // Completed uploads' folders go too (their file is in the content store).
  sweepLeftovers(ctx, spools);
  for (const upload of uploads) {
    if (upload.complete === 1) continue;
    const rows = chunksOf(ctx, upload.id);
    const live = liveUpload(ctx, upload.id, upload.chunk_size);
    await placeSpooled(ctx, upload, live);
    const row = userById(ctx.db, upload.user_id);
    if (rows.length === upload.total_chunks && row) {
      completeIfReady(ctx, toAuthUser(row), upload).catch((err: unknown) =>
        ctx.log(`upload ${upload.id}: completion after restart: ${(err as Error).message}`),
      );
    }
  }
}

/** Deletes unfinished uploads (and their chunks) idle for longer than `maxAgeMs`. */
export function expireUploads(
  ctx: ServiceContext,
  maxAgeMs = setting(ctx.db, 'upload_expiry_hours') * 3_600_000,
): number {
  const cutoff = new Date(ctx.clock.now() - maxAgeMs).toISOString();
  const stale = uploadsIdleSince(ctx, cutoff);
  for (const { id } of stale) abandonUpload(ctx, id);
  sweepUnreferencedBlobs(ctx, BLOB_GRACE_MS);
  return stale.filter((s) => s.complete === 0).length;
}

/** Deletes one upload with its chunks and file (expiry, or its owner abandoning it). */
export function abandonUpload(ctx: ServiceContext, id: number): void {
  deleteUpload(ctx, id);
  removeUploadFiles(ctx, id);
  dropLive(ctx, id);
}

/** Runs recovery now and expiry hourly until the service closes. */
export async function startUploadMaintenance(ctx: ServiceContext): Promise<void> {
  await recoverUploads(ctx);
  expireUploads(ctx);
  const timer = setInterval(
    () => {
      try {
        expireUploads(ctx);
      } catch (err) {
        ctx.log(`upload expiry failed: ${(err as Error).message}`);
      }
    },
    60 * 60 * 1000,
  );
  timer.unref();
  ctx.onClose(() => clearInterval(timer));
}
