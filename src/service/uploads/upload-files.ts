/**
 * The bytes of uploads in progress, on disk. Every open, write, spool, copy, rename, read-back,
 * flush and removal under `<data>/uploads/` happens here, so the rest of the area deals in
 * upload ids, chunk indexes and offsets, never in file handles. Folders are named by row id,
 * never by anything the client chose; an upload's chunks sit at their offsets in one file
 * (`<id>/data`), and a chunk whose offset is not known yet waits in a spool file beside it
 * (or in `tmp/` when its fields had not arrived).
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { constants, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open, rm, rmdir, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ServiceContext } from '../context';
import { sinkPart, type SinkOptions, type SinkResult } from './chunk-sink';

/** Where the service keeps uploads in progress. */
export function uploadsRoot(ctx: ServiceContext): string {
  return join(ctx.config.dataDir, 'uploads');
}

/** The folder of one upload. */
function uploadDir(ctx: ServiceContext, uploadId: number): string {
  return join(uploadsRoot(ctx), String(uploadId));
}

/** The file that chunks are written into at their offsets. */
function dataFile(ctx: ServiceContext, uploadId: number): string {
  return join(uploadDir(ctx, uploadId), 'data');
}

/** The upload's file, for the content store to link once the upload completes. */
export function completedDataFile(ctx: ServiceContext, uploadId: number): string {
  return dataFile(ctx, uploadId);
}

/**
 * Opens (creating) the upload's file for positional writes. Its folder is made only when it is
 * missing, off the event loop: a synchronous mkdir before every chunk was a fifth of
 * the service's time for many small files (issue 21; making a folder costs this disk 0.2 ms
 * to 1 ms, and it held every other request meanwhile).
 */
async function openDataFile(ctx: ServiceContext, uploadId: number): Promise<FileHandle> {
  const dir = uploadDir(ctx, uploadId);
  // A stat is a few microseconds; each trip to the thread pool costs more than that in wake-ups.
  if (!existsSync(dir)) await mkdir(dir, { recursive: true });
  return open(dataFile(ctx, uploadId), constants.O_RDWR | constants.O_CREAT, 0o600);
}

type StreamOptions = Omit<SinkOptions, 'target'>;

/** Streams a part into the upload's file at `position`. */
export async function writeAt(
  ctx: ServiceContext,
  uploadId: number,
  stream: Readable,
  position: number,
  opts: StreamOptions,
): Promise<SinkResult> {
  const fh = await openDataFile(ctx, uploadId);
  try {
    return await sinkPart(stream, { ...opts, target: { fh, position } });
  } finally {
    await fh.close();
  }
}

/**
 * Streams a part into a new spool file: in the upload's folder when the upload is known, else
 * in `tmp/` (swept at start). Returns the spool file's path with the sink's result.
 */
export async function spool(
  ctx: ServiceContext,
  uploadId: number | null,
  stream: Readable,
  opts: StreamOptions,
): Promise<{ path: string; sink: SinkResult }> {
  const dir = uploadId === null ? join(uploadsRoot(ctx), 'tmp') : uploadDir(ctx, uploadId);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `spool-${randomBytes(8).toString('hex')}`);
  const fh = await open(path, 'w', 0o600);
  try {
    return { path, sink: await sinkPart(stream, { ...opts, target: { fh, position: 0 } }) };
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  } finally {
    await fh.close();
  }
}

/** Removes a spool file a part held (by its path). */
export function discardSpool(spoolPath: string): void {
  rmSync(spoolPath, { force: true });
}

/** Removes a spool file kept in an upload's folder (by the name its chunk row records). */
export function removeSpool(ctx: ServiceContext, uploadId: number, name: string): void {
  rmSync(join(uploadDir(ctx, uploadId), name), { force: true });
}

/**
 * Keeps a spool file in the upload's folder (moved there when it was spooled before its fields
 * named the upload) and returns its name there, which the chunk's row records.
 */
export function keepSpool(ctx: ServiceContext, uploadId: number, spoolPath: string): string {
  const dir = uploadDir(ctx, uploadId);
  if (dirname(spoolPath) !== dir) {
    mkdirSync(dir, { recursive: true });
    renameSync(spoolPath, join(dir, basename(spoolPath)));
  }
  return basename(spoolPath);
}

/**
 * Copies a spool file kept in the upload's folder to `position` in the upload's file. The caller removes the spool once the chunk's row says it is placed, so that a crash in
 * between leaves a row whose spool still exists.
 */
export async function placeSpool(ctx: ServiceContext, uploadId: number, name: string, position: number) {
  const src = join(uploadDir(ctx, uploadId), name);
  const fh = await openDataFile(ctx, uploadId);
  try {
    const input = await open(src, 'r');
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      for (let at = 0; ;) {
        const { bytesRead } = await input.read(buf, 0, buf.length, at);
        if (bytesRead === 0) break;
        await fh.write(buf, 0, bytesRead, position + at);
        at += bytesRead;
      }
    } finally {
      await input.close();
    }
  } finally {
    await fh.close();
  }
}

/** Feeds `size` bytes from `position` of an open file into `hash`; false when the file is shorter. */
async function hashRange(fh: FileHandle, hash: Hash, position: number, size: number): Promise<boolean> {
  const buf = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(size, 1)));
  for (let at = position, left = size; left > 0;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, left), at);
    if (bytesRead === 0) return false;
    hash.update(buf.subarray(0, bytesRead));
    at += bytesRead;
    left -= bytesRead;
  }
  return true;
}

/** sha256 of a recorded chunk's bytes, read back from disk (its spool file, or its place in the upload's file). */
export async function storedChunkDigest(
  ctx: ServiceContext,
  uploadId: number,
  chunk: { spool: string | null; position: number; size: number },
): Promise<string> {
  const path = chunk.spool ? join(uploadDir(ctx, uploadId), chunk.spool) : dataFile(ctx, uploadId);
  const fh = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    await hashRange(fh, hash, chunk.spool ? 0 : chunk.position, chunk.size);
    return hash.digest('hex');
  } finally {
    await fh.close();
  }
}

/**
 * Reads ranges of the upload's file into a hash, one after another, with the file opened once
 * on first use; `next` names the next range (or null to stop).
 */
export async function hashPlacedRanges(
  ctx: ServiceContext,
  uploadId: number,
  hash: () => Hash,
  next: () => { position: number; size: number; done: () => void } | null,
): Promise<void> {
  let fh: FileHandle | null = null;
  try {
    for (let range = next(); range; range = next()) {
      fh ??= await open(dataFile(ctx, uploadId), 'r');
      if (!(await hashRange(fh, hash(), range.position, range.size))) {
        throw new Error(`upload ${uploadId}: the bytes at ${range.position} are shorter on disk than recorded`);
      }
      range.done();
    }
  } finally {
    await fh?.close();
  }
}

/** Flushes the upload's file to disk. */
export async function syncDataFile(ctx: ServiceContext, uploadId: number): Promise<void> {
  const fh = await open(dataFile(ctx, uploadId), 'r+');
  try {
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** Cuts the upload's file to `size` bytes (a longer last chunk of an abandoned attempt may remain). */
export function truncateDataFile(ctx: ServiceContext, uploadId: number, size: number): Promise<void> {
  return truncate(dataFile(ctx, uploadId), size);
}

/** Removes an upload's folder now. */
export function removeUploadFiles(ctx: ServiceContext, uploadId: number): void {
  rmSync(uploadDir(ctx, uploadId), { recursive: true, force: true });
}

/**
 * Removes an upload's folder off the event loop: a synchronous rmdir per file held every other
 * upload's request on a busy disk (issue 21, many small files); maintenance sweeps what a crash leaves.
 */
export function removeUploadFilesLater(ctx: ServiceContext, uploadId: number): void {
  const dir = uploadDir(ctx, uploadId);
  // The usual folder holds the one data file: unlink and rmdir are two calls where a recursive
  // rm walks the folder first (issue 21, many small files); anything else takes the long way.
  void unlink(dataFile(ctx, uploadId))
    .then(() => rmdir(dir))
    .catch(() => rm(dir, { recursive: true, force: true }))
    .catch(() => undefined);
}

/**
 * After a crash: removes `tmp/`, the folders of uploads the database does not know, and spool
 * files no chunk row names.
 */
export function sweepLeftovers(ctx: ServiceContext, uploads: Map<number, Set<string>>): void {
  const root = uploadsRoot(ctx);
  rmSync(join(root, 'tmp'), { recursive: true, force: true });
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const spools = uploads.get(Number(name));
    if (!spools || String(Number(name)) !== name) {
      rmSync(join(root, name), { recursive: true, force: true });
      continue;
    }
    for (const file of readdirSync(join(root, name))) {
      if (file.startsWith('spool-') && !spools.has(file)) rmSync(join(root, name, file));
    }
  }
}
