/**
 * Reads a FASTQ file (plain or gzip, told apart by the magic bytes, not the name) as large
 * buffers that each end at a record boundary, so that every buffer can be scanned on its own,
 * by any thread. Inflation runs in zlib's thread pool, off the thread that reads.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

const LF = 10;
const AT = 64;
const PLUS = 43;
export const CHUNK_TARGET = 4 << 20;
/** Beyond this, a buffer with no record boundary is handed on as it is (malformed input errors there). */
const MAX_CARRY = 256 << 20;

export interface RecordChunk {
  /** A standalone buffer (its own ArrayBuffer, so that it can be transferred to a thread). */
  buf: Buffer;
  /** Bytes of the file read so far (compressed bytes for gzip), for progress. */
  consumed: number;
}

/** True when the file starts with the gzip magic bytes. */
export async function isGzipFile(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * The offset of the last record start in buf (0 when there is none after the first byte). A
 * line starting with "@" starts a record when the line two further starts with "+": a quality
 * line that happens to start with "@" is followed two lines later by a sequence, never "+".
 */
export function lastRecordStart(buf: Uint8Array): number {
  let nl = buf.lastIndexOf(LF);
  while (nl >= 0) {
    const k = nl + 1;
    if (k < buf.length && buf[k] === AT) {
      const l1 = buf.indexOf(LF, k);
      const l2 = l1 < 0 ? -1 : buf.indexOf(LF, l1 + 1);
      if (l2 >= 0 && l2 + 1 < buf.length && buf[l2 + 1] === PLUS) return k;
    }
    if (nl === 0) break;
    nl = buf.lastIndexOf(LF, nl - 1);
  }
  return 0;
}

function standalone(parts: Buffer[], total: number): Buffer {
  const out = Buffer.allocUnsafeSlow(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Yields record-aligned buffers of about `target` bytes from a plain or gzip FASTQ file. */
export async function* recordChunks(path: string, target = CHUNK_TARGET): AsyncGenerator<RecordChunk> {
  const gz = await isGzipFile(path);
  const file: ReadStream = createReadStream(path, { highWaterMark: gz ? 1 << 20 : target });
  const source = gz ? file.pipe(createGunzip({ chunkSize: 1 << 20 })) : file;
  if (gz) file.on('error', (err) => source.destroy(err));
  let parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const piece of source as AsyncIterable<Buffer>) {
      parts.push(piece);
      total += piece.length;
      if (total < target) continue;
      const joined = standalone(parts, total);
      let cut = lastRecordStart(joined);
      if (cut === 0 && total < MAX_CARRY) {
        parts = [joined];
        continue;
      }
      if (cut === 0) cut = total;
      const tail = Buffer.from(joined.subarray(cut));
      parts = tail.length ? [tail] : [];
      total = tail.length;
      yield { buf: joined.subarray(0, cut), consumed: file.bytesRead };
    }
    if (total > 0) yield { buf: standalone(parts, total), consumed: file.bytesRead };
  } finally {
    file.destroy();
    source.destroy();
  }
}
