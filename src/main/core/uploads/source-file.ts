/**
 * Reads a job's source as one byte stream: a single file, or several files joined in order
 * (Nanopore batches of one barcode; gzip members concatenate into a valid gzip file). Chunks
 * are read by position so that a resumed job reads only what it needs.
 */
import fs, { type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export interface SourceStat {
  size: number;
  /** The newest modification time among the sources. */
  mtimeMs: number;
}

/** Size and newest mtime of the joined sources. */
export async function statSources(sources: readonly string[]): Promise<SourceStat> {
  let size = 0;
  let mtimeMs = 0;
  for (const path of sources) {
    const st = await stat(path);
    size += st.size;
    mtimeMs = Math.max(mtimeMs, st.mtimeMs);
  }
  return { size, mtimeMs };
}

/** Reads `length` bytes at `offset` of the joined sources, into `into` when it is given and large enough, else a fresh buffer. */
export async function readSourceRange(
  sources: readonly string[],
  sizes: readonly number[],
  offset: number,
  length: number,
  into?: Buffer,
): Promise<Buffer> {
  const out = into && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let filled = 0;
  let base = 0;
  for (let i = 0; i < sources.length && filled < length; i++) {
    const size = sizes[i]!;
    const start = offset + filled;
    if (start >= base + size) {
      base += size;
      continue;
    }
    const fh = await open(sources[i]!, 'r');
    try {
      const want = Math.min(length - filled, base + size - start);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await fh.read(out, filled + got, want - got, start - base + got);
        if (bytesRead === 0) throw new Error(`${sources[i]} is shorter than when it was queued`);
        got += bytesRead;
      }
      filled += got;
    } finally {
      await fh.close();
    }
    base += size;
  }
  if (filled !== length) throw new Error('The source files are shorter than when they were queued');
  return out;
}

/**
 * Reads the joined sources whole (`size` bytes, as queued) and stats each file on the handle
 * that read it, after the read: the bytes are what the files held if that stat still shows the
 * size and modification time the job was queued with, so a file read whole needs no stat by
 * path after its upload (one file-system call per small file fewer, issue 21).
 */
export async function readWholeSources(
  sources: readonly string[],
  sizes: readonly number[],
  size: number,
): Promise<{ bytes: Buffer; stat: SourceStat }> {
  const bytes = Buffer.allocUnsafe(size);
  const stat: SourceStat = { size: 0, mtimeMs: 0 };
  let filled = 0;
  for (let i = 0; i < sources.length; i++) {
    const want = Math.min(sizes[i]!, size - filled);
    const st = await readFileInto(sources[i]!, bytes, filled, want);
    filled += want;
    stat.size += st.size;
    stat.mtimeMs = Math.max(stat.mtimeMs, st.mtimeMs);
  }
  if (filled !== size) throw new Error('The source files are shorter than when they were queued');
  return { bytes, stat };
}

/**
 * Reads `want` bytes from the start of `path` into `into` at `at`, then stats the open file. With
 * the callback API, in one promise: the promise API's FileHandle (an object, a promise and a
 * close tracker per call) cost twice the main-thread time of these four calls, which 2,000 small
 * files paid at 0.15 ms each (issue 21).
 */
function readFileInto(path: string, into: Buffer, at: number, want: number): Promise<Stats> {
  return new Promise((resolve, reject) => {
    fs.open(path, 'r', (openErr, fd) => {
      if (openErr) return reject(openErr);
      // Closes the file whatever happened, then settles with the first error or the stat.
      const end = (err: Error | null, st?: Stats) =>
        fs.close(fd, (closeErr) => {
          const failure = err ?? closeErr;
          if (failure) reject(failure);
          else resolve(st!);
        });
      let got = 0;
      const more = () => {
        if (got === want) {
          fs.fstat(fd, (statErr, st) => end(statErr, st));
          return;
        }
        fs.read(fd, into, at + got, want - got, got, (readErr, n) => {
          if (readErr) return end(readErr);
          if (n === 0) return end(new Error(`${path} is shorter than when it was queued`));
          got += n;
          more();
        });
      };
      more();
    });
  });
}

/** Sizes of each source, in order. */
export async function sourceSizes(sources: readonly string[]): Promise<number[]> {
  return Promise.all(sources.map(async (p) => (await stat(p)).size));
}
