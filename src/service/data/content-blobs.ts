/**
 * The content-addressed store: every stored file lives once under `store/<aa>/<sha256>` in the
 * data folder, whoever uploaded it. Records point at it by checksum, so identical bytes of
 * different users share storage while each user keeps their own record.
 */
import { createReadStream, linkSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { copyFileSync, closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { storageKeyInUse } from './data.store';

const SHA256 = /^[0-9a-f]{64}$/;

/** The store's root folder. */
export function storeRoot(ctx: ServiceContext): string {
  return join(ctx.config.dataDir, 'store');
}

/** Absolute path of the stored bytes with this checksum (whether or not present). */
export function blobPath(ctx: ServiceContext, key: string): string {
  if (!SHA256.test(key)) throw new Error(`Not a storage key: ${key}`);
  return join(storeRoot(ctx), key.slice(0, 2), key);
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
}

/**
 * Puts `file` into the store under `key`. With `keep` the source stays (a hard link, so a crash
 * before the caller's commit leaves the source to retry from); otherwise it is moved. Identical
 * bytes already stored win: the source is simply not needed.
 */
export function putBlob(ctx: ServiceContext, file: string, key: string, keep = false): string {
  const target = blobPath(ctx, key);
  mkdirSync(join(storeRoot(ctx), key.slice(0, 2)), { recursive: true });
  try {
    linkSync(file, target);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'EEXIST') {
      if (!keep) unlinkSync(file);
      return target;
    }
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    // Another file system (or one without hard links): copy to a temporary name, then rename.
    const temp = `${target}.tmp-${process.pid}-${Date.now()}`;
    copyFileSync(file, temp);
    renameSync(temp, target);
  }
  if (!keep) unlinkSync(file);
  return target;
}

/** Removes stored bytes that no data record refers to any more. */
export function removeBlobIfUnused(ctx: ServiceContext, key: string): void {
  if (storageKeyInUse(ctx.db)(key)) return;
  try {
    unlinkSync(blobPath(ctx, key));
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * Removes stored files that no record refers to and that are older than `minAgeMs` (left by a
 * crash between storing and committing the record); the age keeps a commit in flight safe.
 */
export function sweepUnreferencedBlobs(ctx: ServiceContext, minAgeMs: number): number {
  let removed = 0;
  const root = storeRoot(ctx);
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return 0;
  }
  const referenced = storageKeyInUse(ctx.db);
  for (const dir of dirs) {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(root, dir, name);
      const stale = ctx.clock.now() - statSync(path).mtimeMs > minAgeMs;
      if (!stale) continue;
      if (SHA256.test(name) && referenced(name)) continue;
      unlinkSync(path);
      removed++;
    }
  }
  return removed;
}

/** sha256 of a file, streamed. */
export function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (d) => hash.update(d))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** sha256 of a file, synchronously in 1 MiB blocks (for callers that cannot await). */
export function hashFileSync(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
