/**
 * What the service knows of an upload in flight beyond the database: the chunk size once
 * known, which chunks are being written right now, the running sha256 of the contiguous
 * prefix (so the whole-file checksum is ready when the last chunk lands), and the one
 * completion in progress. Lost on a restart by design: everything here can be rebuilt from
 * disk and the database.
 */
import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { ServiceContext } from '../context';
import { uploadDataFile } from './upload-paths';
import { chunkOf } from './uploads.store';

export interface LiveUpload {
  id: number;
  chunkSize: number | null;
  inflight: Map<number, Promise<void>>;
  hash: Hash;
  /** Index of the first chunk not yet in `hash`. */
  hashedUpTo: number;
  /** A chunk is being hashed while it streams in (always chunk `hashedUpTo`). */
  teeing: boolean;
  hashing: Promise<void> | null;
  completion: Promise<unknown> | null;
  /** Placement of spooled chunks, one at a time. */
  placing: Promise<void>;
  /** The background flush of written chunks to disk, and whether another is due after it. */
  syncing: Promise<void> | null;
  syncAgain: boolean;
}

/** The live state of an upload, created on first use. */
export function liveUpload(ctx: ServiceContext, id: number, chunkSize: number | null): LiveUpload {
  const map = ctx.parts.liveUploads;
  let live = map.get(id);
  if (!live) {
    live = {
      id,
      chunkSize,
      inflight: new Map(),
      hash: createHash('sha256'),
      hashedUpTo: 0,
      teeing: false,
      hashing: null,
      completion: null,
      placing: Promise.resolve(),
      syncing: null,
      syncAgain: false,
    };
    map.set(id, live);
  }
  if (live.chunkSize === null && chunkSize !== null) live.chunkSize = chunkSize;
  return live;
}

/** Forgets an upload's live state (completed, reset or expired). */
export function dropLive(ctx: ServiceContext, id: number): void {
  ctx.parts.liveUploads.delete(id);
}

/**
 * Hashes every recorded, placed chunk that follows the hashed prefix, reading them back from
 * the upload's file (recently written, so from the page cache). Runs concurrently with the
 * arrival of further chunks; in-order uploads rarely need it because chunks are hashed as
 * they stream in.
 */
export function advanceHash(ctx: ServiceContext, live: LiveUpload): Promise<void> {
  if (live.hashing) return live.hashing;
  const run = async () => {
    const buf = Buffer.allocUnsafe(1 << 20);
    let fh: Awaited<ReturnType<typeof open>> | null = null;
    try {
      for (;;) {
        if (live.teeing || live.chunkSize === null) return;
        const row = chunkOf(ctx, live.id, live.hashedUpTo);
        if (!row || row.spool !== null) return;
        fh ??= await open(uploadDataFile(ctx, live.id), 'r');
        let pos = live.hashedUpTo * live.chunkSize;
        let left = row.size;
        while (left > 0) {
          const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, left), pos);
          if (bytesRead === 0) throw new Error(`upload ${live.id}: chunk ${row.idx} is shorter on disk than recorded`);
          live.hash.update(buf.subarray(0, bytesRead));
          pos += bytesRead;
          left -= bytesRead;
        }
        live.hashedUpTo++;
      }
    } finally {
      await fh?.close();
    }
  };
  live.hashing = run().finally(() => {
    live.hashing = null;
  });
  return live.hashing;
}

/**
 * Whether completed uploads are flushed to disk before their record commits (default). With
 * LANEWAY_UPLOAD_FSYNC=0 they are as durable as the database (synchronous=NORMAL): safe against
 * a crash of the process, not against a power cut.
 */
export function uploadsAreSynced(): boolean {
  return process.env.LANEWAY_UPLOAD_FSYNC !== '0';
}

/**
 * Flushes the upload's file to disk in the background while further chunks arrive, so that
 * completion, which must not commit a record before its bytes are durable, finds little left
 * to write. At most one flush runs, and at most one more is queued behind it.
 */
export function syncInBackground(ctx: ServiceContext, live: LiveUpload): Promise<void> {
  if (!uploadsAreSynced()) return Promise.resolve();
  if (live.syncing) {
    live.syncAgain = true;
    return live.syncing;
  }
  const run = async () => {
    do {
      live.syncAgain = false;
      const fh = await open(uploadDataFile(ctx, live.id), 'r+');
      try {
        await fh.datasync();
      } finally {
        await fh.close();
      }
    } while (live.syncAgain);
  };
  live.syncing = run()
    .catch((err: unknown) => {
      // No file yet (only a spooled chunk) or none any more (completed): nothing to flush.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        ctx.log(`upload ${live.id}: background flush failed: ${String(err)}`);
      }
    })
    .finally(() => {
      live.syncing = null;
    });
  return live.syncing;
}
