/**
 * Keeping the upload area tidy across crashes and time: at start, leftovers of requests that
 * died with the process are removed and uploads whose chunks had all arrived are completed;
 * hourly, unfinished uploads idle for longer than the admin's expiry (`upload_expiry_hours`,
 * 72 by default) are deleted with their chunks.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { sweepUnreferencedBlobs } from '../data/content-blobs';
import { toAuthUser } from '../auth/authenticate';
import { userById } from '../auth/users.store';
import { placeSpooled } from './chunk-placement';
import { completeIfReady } from './upload-complete';
import { dropLive, liveUpload } from './upload-live';
import { setting } from '../settings/settings.store';
import { uploadDir, uploadsRoot } from './upload-paths';
import { allUploads, chunksOf, deleteUpload, uploadsIdleSince } from './uploads.store';

const BLOB_GRACE_MS = 24 * 60 * 60 * 1000;

/** Cleans up after a crash and completes uploads that only lacked their completion. */
export async function recoverUploads(ctx: ServiceContext): Promise<void> {
  rmSync(join(uploadsRoot(ctx), 'tmp'), { recursive: true, force: true });
  const uploads = allUploads(ctx);
  const known = new Set(uploads.map((u) => String(u.id)));
  if (existsSync(uploadsRoot(ctx))) {
    for (const name of readdirSync(uploadsRoot(ctx))) {
      if (!known.has(name)) rmSync(join(uploadsRoot(ctx), name), { recursive: true, force: true });
    }
  }
  for (const upload of uploads) {
    const dir = uploadDir(ctx, upload.id);
    if (upload.complete === 1) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    const rows = chunksOf(ctx, upload.id);
    const spools = new Set(rows.map((r) => r.spool).filter((s) => s !== null));
    if (existsSync(dir)) {
      for (const name of readdirSync(dir)) if (name.startsWith('spool-') && !spools.has(name)) rmSync(join(dir, name));
    }
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
  rmSync(uploadDir(ctx, id), { recursive: true, force: true });
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
