/**
 * Consumes one multipart file part without ever holding it whole: bytes go straight to their
 * place on disk (at the chunk's offset in the upload's file, or to a spool file), hashed on
 * the way. A problem found midway (bad format, too many bytes) stops the writing but keeps
 * draining, so the request can still be answered cleanly.
 */
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ApiError } from '../http/api-error';
import { SNIFF_BYTES } from './format-sniff';

/** What the sink writes to: an open FileHandle, or a spool file of single-chunk-files.ts. */
export type SinkFile = Pick<FileHandle, 'writev'> | { writev(buffers: Buffer[], position: number): Promise<unknown> };

export interface SinkOptions {
  /** Where bytes go: an open file and the offset of the part's first byte; null only hashes. */
  target: { fh: SinkFile; position: number } | null;
  /** Most bytes the part may have (read at each write: the chunk size may become known midway). */
  cap: () => number;
  /** Hashes fed with every byte of the part. */
  hashes: Hash[];
  /** Sees the part's first bytes once (SNIFF_BYTES, or fewer at the end); returns an error to stop. */
  sniff?: (head: Buffer, ended: boolean) => ApiError | null;
}

export interface SinkResult {
  size: number;
  head: Buffer;
  truncated: boolean;
  problem: ApiError | null;
}

const FLUSH_BYTES = 1 << 20;
const WRITES_IN_FLIGHT = 4;

/** Streams a part to its target; resolves when every byte has been read and written. */
export async function sinkPart(stream: Readable, opts: SinkOptions): Promise<SinkResult> {
  let size = 0;
  let problem: ApiError | null = null;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let sniffed = !opts.sniff;

  // Writes go out while the socket keeps being read; only when WRITES_IN_FLIGHT are pending
  // does reading wait for the oldest. They reach the file one after another: the kernel holds
  // the file's inode lock through each buffered write, so writes at once only spun on it (8% of
  // the service's CPU in a 2 GiB upload under perf, on two cores).
  const writing: Array<Promise<unknown>> = [];
  let previous: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (!opts.target || pendingBytes === 0) return;
    const bufs = pending;
    pending = [];
    const at = opts.target.position + written;
    written += pendingBytes;
    pendingBytes = 0;
    const fh = opts.target.fh;
    const w = previous.then(() => fh.writev(bufs, at));
    previous = w.catch(() => {});
    // Handled here so that a write failing while the stream fails too is never unhandled.
    w.catch(() => {});
    writing.push(w);
    if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
  };

  try {
    for await (const data of stream as AsyncIterable<Buffer>) {
      if (problem) continue;
      size += data.length;
      if (size > opts.cap()) {
        problem = new ApiError('VALIDATION_ERROR', "The chunk is larger than the upload's chunk size", {
          fields: { file: 'every chunk but the last must have the same size, and the last no more' },
        });
        continue;
      }
      if (!sniffed) {
        headParts.push(data);
        headBytes += data.length;
        if (headBytes >= SNIFF_BYTES) {
          sniffed = true;
          problem = opts.sniff!(Buffer.concat(headParts).subarray(0, SNIFF_BYTES), false);
          if (problem) continue;
        }
      }
      for (const h of opts.hashes) h.update(data);
      if (opts.target) {
        pending.push(data);
        pendingBytes += data.length;
        if (pendingBytes >= FLUSH_BYTES) await flush();
      }
    }
  } catch (err) {
    // The caller closes the file next: let every write finish (or fail) first.
    await Promise.allSettled(writing);
    throw err;
  }
  const head = Buffer.concat(headParts).subarray(0, SNIFF_BYTES);
  if (!problem && !sniffed) problem = opts.sniff!(head, true);
  try {
    if (!problem) await flush();
  } finally {
    await Promise.all(writing);
  }
  const truncated = (stream as Readable & { truncated?: boolean }).truncated === true;
  return { size, head, truncated, problem };
}
