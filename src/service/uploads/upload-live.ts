/**
 * What the service knows of an upload in flight beyond the database: the chunk size once
 * known, which chunks are being written right now, the running sha256 of the contiguous
 * prefix (so the whole-file checksum is ready when the last chunk lands), and the one
 * completion in progress. Lost on a restart by design: everything here can be rebuilt from
 * disk and the database.
 */
import { createHash, type Hash } from 'node:crypto';
import type { ServiceContext } from '../context';
import { hashPlacedRanges, syncDataFile } from './upload-files';
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
  const next = () => {
    if (live.teeing || live.chunkSize === null) return null;
    const row = chunkOf(ctx, live.id, live.hashedUpTo);
    if (!row || row.spool !== null) return null;
    return { position: live.hashedUpTo * live.chunkSize, size: row.size, done: () => void live.hashedUpTo++ };
  };
  live.hashing = hashPlacedRanges(ctx, live.id, () => live.hash, next).finally(() => {
    live.hashing = null;
  });
  return live.hashing;
}

/** Holds a chunk's index while its bytes are written in place; the returned function lets go. */
export function holdChunk(live: LiveUpload, idx: number): () => void {
  let done!: () => void;
  live.inflight.set(idx, new Promise<void>((r) => (done = r)));
  return () => {
    live.inflight.delete(idx);
    done();
  };
}

/** Waits until no request is writing chunk `idx` in place. */
export async function chunkWritten(live: LiveUpload, idx: number): Promise<void> {
  for (let pending = live.inflight.get(idx); pending; pending = live.inflight.get(idx)) await pending;
}

/**
 * A copy of the running hash for a chunk that streams in right at the end of the hashed
 * prefix (so the whole-file hash follows it without reading it back), or null; claimed at most
 * once at a time.
 */
export function claimTee(live: LiveUpload, idx: number): Hash | null {
  if (idx !== live.hashedUpTo || live.teeing || live.hashing) return null;
  live.teeing = true;
  return live.hash.copy();
}

/** The teed chunk was recorded: its hash becomes the running hash. */
export function adoptTee(live: LiveUpload, tee: Hash, idx: number): void {
  live.hash = tee;
  live.hashedUpTo = idx + 1;
  live.teeing = false;
}

/** The teed chunk was not recorded: the running hash stays as it was. */
export function dropTee(live: LiveUpload): void {
  live.teeing = false;
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
      await syncDataFile(ctx, live.id);
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
