/**
 * The bytes of a one-chunk upload on disk (issue 21, many small files): written once to a file
 * in `<data>/uploads/tmp/` (swept at start, like every spool there), flushed on the same
 * handle, and renamed into the content store once its record may commit. The multi-chunk path
 * makes a folder per upload, reopens its file to flush it, cuts it to size, links it into the
 * store and removes file and folder; a file that arrives whole needs none of that.
 */
import { randomBytes } from 'node:crypto';
import fs, { renameSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { blobPath, putBlob, storeRoot } from '../data/content-blobs';
import { sinkPart, type SinkOptions, type SinkResult } from './chunk-sink';
import { uploadsRoot } from './upload-files';

/** Folders known to exist, by path: made once per process instead of once per file. */
const made = new Set<string>();

async function ensureDir(dir: string): Promise<void> {
  if (made.has(dir)) return;
  await mkdir(dir, { recursive: true });
  made.add(dir);
}

/**
 * A spool file written through libuv's callbacks on a plain descriptor. The promise API's
 * FileHandle costs twice the main-thread time per call (an object, a promise and a close
 * tracker each), and a small file makes four of them: open, write, flush, close (issue 21).
 */
class SpoolFile {
  constructor(private readonly fd: number) {}

  static open(path: string): Promise<SpoolFile> {
    return new Promise((resolve, reject) =>
      fs.open(path, 'wx', 0o600, (err, fd) => (err ? reject(err) : resolve(new SpoolFile(fd)))),
    );
  }

  writev(buffers: Buffer[], position: number): Promise<number> {
    return new Promise((resolve, reject) =>
      fs.writev(this.fd, buffers, position, (err, n) => (err ? reject(err) : resolve(n))),
    );
  }

  datasync(): Promise<void> {
    return new Promise((resolve, reject) => fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => fs.close(this.fd, (err) => (err ? reject(err) : resolve())));
  }
}

async function openNew(path: string): Promise<SpoolFile> {
  const dir = join(path, '..');
  await ensureDir(dir);
  try {
    return await SpoolFile.open(path);
  } catch (err) {
    // Swept since it was made (the start-up sweep of tmp/ runs beside the first requests).
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    made.delete(dir);
    await ensureDir(dir);
    return SpoolFile.open(path);
  }
}

/**
 * Streams a whole one-chunk file into a new file in `tmp/`; flushes it to disk when `sync` and
 * nothing was wrong with it. Returns its path with the sink's result; on a throw nothing is left.
 */
export async function spoolWhole(
  ctx: ServiceContext,
  stream: Parameters<typeof sinkPart>[0],
  opts: Omit<SinkOptions, 'target'>,
  sync: boolean,
): Promise<{ path: string; sink: SinkResult }> {
  const path = join(uploadsRoot(ctx), 'tmp', `whole-${randomBytes(8).toString('hex')}`);
  const file = await openNew(path);
  let sink: SinkResult;
  try {
    sink = await sinkPart(stream, { ...opts, target: { fh: file, position: 0 } });
    // The one flush of a small file, on the descriptor that wrote it (no second open): its
    // record must not commit before its bytes are on disk. With synchronous=NORMAL a later
    // checkpoint makes the record durable whatever became of unflushed file pages, so without
    // this a power cut could leave a record whose stored file is empty or torn.
    if (sync && !sink.problem && !sink.truncated && sink.size > 0) await file.datasync();
  } catch (err) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw err;
  }
  await file.close();
  return { path, sink };
}

/** Makes the content store's folder for `key` (once per process), ahead of `moveIntoStore`. */
export function storeFolderFor(ctx: ServiceContext, key: string): Promise<void> {
  return ensureDir(join(storeRoot(ctx), key.slice(0, 2)));
}

/**
 * Moves a spooled whole file into the content store under `key` with one rename, synchronously:
 * the caller commits the record in the same turn of the event loop, so that nothing (a delete
 * removing the last record of these bytes and with them the stored file) runs in between, as
 * the multi-chunk completion links and commits in one turn. A blob already stored under the key
 * has the same bytes (the key is their sha256), so replacing its name changes no content; on
 * another file system, or when the folder went, the store's `putBlob` does it.
 */
export function moveIntoStore(ctx: ServiceContext, path: string, key: string): void {
  try {
    renameSync(path, blobPath(ctx, key));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EXDEV' && code !== 'EPERM') throw err;
    made.delete(join(storeRoot(ctx), key.slice(0, 2)));
    putBlob(ctx, path, key);
  }
}
