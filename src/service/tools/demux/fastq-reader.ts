/**
 * A FASTQ record reader that works on large buffers (chunks of a ChunkPool, lent to the output
 * thread once parsed) and hands out line offsets instead of strings: demultiplexing copies
 * bytes from input to output and never needs a JS string per line. Plain files are read ahead
 * on the libuv thread pool; gzip input is inflated by zlib on the thread pool, so inflating
 * overlaps with parsing. A chunk is never written again once records were found in it: each
 * refill moves on to another chunk and retires the previous one.
 */
import { closeSync, createReadStream, fstatSync, openSync, read, readSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { FastqFormatError } from '../fastq-format-error';
import type { Chunk, ChunkPool } from './chunk-pool';

const BUFFER_BYTES = 4 * 1024 * 1024;
const NL = 10;
const AT = 64;
const PLUS = 43;

interface ChunkSource {
  /** Reads into target at offset; resolves with the byte count, 0 at the end. */
  read(target: Buffer, offset: number): Promise<number> | number;
  /** Bytes of the file consumed so far (compressed bytes for gzip), for progress. */
  readonly consumed: number;
  readonly size: number;
  close(): void;
}

/** True when the file starts with the gzip magic bytes. */
export function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** Room kept before each read-ahead chunk for the unread tail of the previous one. */
const HEADROOM = 256 * 1024;
/** Bytes read ahead of the parser: one read in flight on the thread pool while a chunk is parsed. */
const READ_AHEAD_BYTES = 4 * 1024 * 1024;

/** A plain file read ahead on the thread pool into fresh buffers, each with headroom for a tail. */
interface PlainPrefetch extends ChunkSource {
  /** The next chunk: bytes at [HEADROOM, HEADROOM + n) of its buf; n 0 at the end (chunk null). */
  nextChunk(): Promise<{ chunk: Chunk | null; n: number }>;
}

function plainSource(path: string, pool: ChunkPool, chunkBytes: number): PlainPrefetch {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  let consumed = 0;
  let done = false;
  const readAhead = () =>
    new Promise<{ chunk: Chunk | null; n: number }>((resolve, reject) => {
      const chunk = pool.take(HEADROOM + chunkBytes);
      read(fd, chunk.buf, HEADROOM, chunkBytes, null, (err, n) => {
        if (err) return reject(err);
        consumed += n;
        if (n === 0) pool.retire(chunk);
        resolve(n === 0 ? { chunk: null, n } : { chunk, n });
      });
    });
  let next: Promise<{ chunk: Chunk | null; n: number }> | null = readAhead();
  return {
    async nextChunk() {
      if (!next) return { chunk: null, n: 0 };
      const chunk = await next;
      next = chunk.n === 0 || done ? null : readAhead();
      return chunk;
    },
    read() {
      throw new Error('plain sources hand out whole chunks');
    },
    get consumed() {
      return consumed;
    },
    size,
    close: () => {
      // A read may still be in flight: close once it is done.
      const last = next;
      done = true;
      next = null;
      if (last)
        void last.then(
          () => closeSync(fd),
          () => closeSync(fd),
        );
      else closeSync(fd);
    },
  };
}

function gzipSource(path: string): ChunkSource {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const size = statSync(path).size;
  const gunzip = createGunzip({ chunkSize: 1024 * 1024 });
  file.pipe(gunzip);
  const chunks = gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let pending: Buffer | null = null;
  return {
    async read(target, offset) {
      if (!pending || pending.length === 0) {
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (err) {
          throw new Error(`${path}: not a readable gzip file (${(err as Error).message})`, { cause: err });
        }
        if (next.done) return 0;
        pending = next.value;
      }
      const n = Math.min(pending.length, target.length - offset);
      pending.copy(target, offset, 0, n);
      pending = pending.subarray(n);
      return n;
    },
    get consumed() {
      return file.bytesRead;
    },
    size,
    close: () => {
      file.destroy();
      gunzip.destroy();
    },
  };
}

/** Bytes a line is scanned for its end in JavaScript before Buffer#indexOf takes over. */
const SHORT_LINE = 40;

/**
 * The newline ending the line that starts at `from`, or -1 when it is not before `end`. Short
 * lines (read names, index reads) end sooner than a native indexOf call costs to make: their
 * first `scan` bytes are searched here, four at a time (a word has a newline byte when
 * (x - 0x01010101) & ~x & 0x80808080 is not 0, x being the word XOR 0x0a0a0a0a).
 */
function lineEnd(b: Buffer, words: DataView, from: number, end: number, scan: number): number {
  const stop = from + scan < end ? from + scan : end;
  let i = from;
  for (; i + 4 <= stop; i += 4) {
    const x = words.getInt32(i, true) ^ 0x0a0a0a0a;
    if (((x - 0x01010101) & ~x & 0x80808080) !== 0) break;
  }
  for (; i < stop; i++) if (b[i] === NL) return i;
  if (stop === end) return -1;
  const e = b.indexOf(NL, stop);
  return e < 0 || e >= end ? -1 : e;
}

/** Reads FASTQ records; after `next()` returns true the offsets describe the current record. */
export class FastqReader {
  buf: Buffer = Buffer.alloc(0);
  /** `buf` read as words, for finding newlines. */
  private words = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  /** The pool chunk `buf` belongs to (-1 before the first refill). */
  chunkId = -1;
  private chunk: Chunk | null = null;
  /** Header line [h0, h1), sequence [s0, s1), quality [q0, q1); each ends at its newline. */
  h0 = 0;
  h1 = 0;
  s0 = 0;
  s1 = 0;
  q0 = 0;
  q1 = 0;
  /** Records read so far. */
  records = 0;
  private pos = 0;
  private end = 0;
  private eof = false;
  private readonly source: ChunkSource;
  private readonly plain: PlainPrefetch | null;

  /** `chunkBytes`: bytes of a plain file read into each chunk (smaller in tests, for many chunks). */
  constructor(
    readonly path: string,
    private readonly pool: ChunkPool,
    chunkBytes = READ_AHEAD_BYTES,
  ) {
    this.plain = isGzipFile(path) ? null : plainSource(path, pool, chunkBytes);
    this.source = this.plain ?? gzipSource(path);
  }

  /** Moves on to another chunk; the previous one is retired, never written to again. */
  private use(chunk: Chunk): void {
    if (this.chunk) this.pool.retire(this.chunk);
    this.chunk = chunk;
    this.buf = chunk.buf;
    this.words = new DataView(chunk.buf.buffer, chunk.buf.byteOffset, chunk.buf.length);
    this.chunkId = chunk.id;
  }

  /** At the end: the current chunk goes to the output thread with the last operations. */
  release(): void {
    if (this.chunk) this.pool.retire(this.chunk);
    this.chunk = null;
    this.buf = Buffer.alloc(0);
    this.words = new DataView(this.buf.buffer, this.buf.byteOffset, 0);
    this.chunkId = -1;
  }

  /** A fresh chunk of at least `size` bytes holding buf[from, to) at its start. */
  private moveTo(size: number, from: number, to: number): void {
    const chunk = this.pool.take(size);
    if (to > from) this.buf.copy(chunk.buf, 0, from, to);
    this.use(chunk);
  }

  /** Where the unread bytes of `buf` start and end (a native scan starts there). */
  get position(): number {
    return this.pos;
  }

  get bufferEnd(): number {
    return this.end;
  }

  /** Moves past `records` whole records that end before `pos` (taken by a native scan). */
  skipTo(pos: number, records: number): void {
    this.pos = pos;
    this.records += records;
  }

  /** Fraction of the input consumed, 0 to 1. */
  get progress(): number {
    return this.source.size ? Math.min(1, this.source.consumed / this.source.size) : 1;
  }

  /** Parses the next record from the buffer; false when the buffer holds no complete record. */
  next(): boolean {
    const b = this.buf;
    const end = this.end;
    const p = this.pos;
    if (p >= end) return false;
    if (b[p] !== AT) {
      if (b[p] === NL || b[p] === 13) return this.skipBlank();
      throw new FastqFormatError({ file: this.path, record: this.records + 1 }, 'does not start with "@"');
    }
    const words = this.words;
    const h1 = lineEnd(b, words, p, end, SHORT_LINE);
    if (h1 < 0) return false;
    // Sequences as long as the last one was: straight to indexOf when that was long.
    const s1 = lineEnd(b, words, h1 + 1, end, this.s1 - this.s0 > SHORT_LINE ? 0 : SHORT_LINE);
    if (s1 < 0) return false;
    const plus = s1 + 1;
    if (plus >= end) return false;
    if (b[plus] !== PLUS) throw new FastqFormatError({ file: this.path, record: this.records + 1 }, 'has no "+" line');
    let q0: number;
    if (plus + 1 < end && b[plus + 1] === NL) q0 = plus + 2;
    else {
      const e = b.indexOf(NL, plus);
      if (e < 0 || e >= end) return false;
      q0 = e + 1;
    }
    // The quality line is as long as the sequence: look for its newline exactly there.
    const q1 = q0 + (s1 - h1 - 1);
    if (q1 >= end) return false;
    if (b[q1] !== NL) {
      const e = b.indexOf(NL, q0);
      if (e < 0 || e >= end) return false;
      throw new FastqFormatError(
        { file: this.path, record: this.records + 1 },
        'has a quality line of another length than its sequence',
      );
    }
    this.h0 = p;
    this.h1 = h1;
    this.s0 = h1 + 1;
    this.s1 = s1;
    this.q0 = q0;
    this.q1 = q1;
    this.pos = q1 + 1;
    this.records++;
    return true;
  }

  private skipBlank(): boolean {
    while (this.pos < this.end && (this.buf[this.pos] === NL || this.buf[this.pos] === 13)) this.pos++;
    return this.next();
  }

  /** Moves the unread tail to the front and reads more; false at the end of the input. */
  async refill(): Promise<boolean> {
    if (this.eof) {
      if (this.pos < this.end) {
        throw new FastqFormatError(
          { file: this.path, record: this.records + 1 },
          'is truncated (the file ends inside it)',
        );
      }
      return false;
    }
    const tail = this.end - this.pos;
    if (this.plain && tail <= HEADROOM) {
      // Swap to the chunk read ahead, with the unread tail put just before it: no chunk copy.
      const { chunk, n } = await this.plain.nextChunk();
      if (chunk) {
        if (tail > 0) this.buf.copy(chunk.buf, HEADROOM - tail, this.pos, this.end);
        this.use(chunk);
        this.pos = HEADROOM - tail;
        this.end = HEADROOM + n;
        return true;
      }
      this.eof = true;
      return this.finishTail();
    }
    return this.refillCopying();
  }

  /** At the end of the input: a last record without its final newline is still a record. */
  private finishTail(): boolean {
    if (this.end > this.pos && this.buf[this.end - 1] !== NL) {
      if (this.end === this.buf.length) {
        this.moveTo(this.end - this.pos + 1, this.pos, this.end);
        this.end -= this.pos;
        this.pos = 0;
      }
      this.buf[this.end++] = NL;
    }
    return this.end > this.pos;
  }

  /** Moves the unread tail to the front of a fresh chunk and reads more into it (gzip, or a huge record). */
  private async refillCopying(): Promise<boolean> {
    if (this.plain) {
      // A record larger than the headroom: a chunk holding the tail and the next chunk.
      const { chunk, n } = await this.plain.nextChunk();
      const tail = this.end - this.pos;
      this.moveTo(tail + n + 1, this.pos, this.end);
      if (chunk) {
        chunk.buf.copy(this.buf, tail, HEADROOM, HEADROOM + n);
        this.pool.retire(chunk);
      }
      this.pos = 0;
      this.end = tail + n;
      if (n === 0) {
        this.eof = true;
        return this.finishTail();
      }
      return true;
    }
    const tail = this.end - this.pos;
    // One record bigger than the buffer (long reads): grow rather than fail.
    this.moveTo(Math.max(BUFFER_BYTES, 2 * tail), this.pos, this.end);
    this.pos = 0;
    this.end = tail;
    let n = await this.source.read(this.buf, this.end);
    while (n > 0) {
      this.end += n;
      if (this.end === this.buf.length) break;
      const more = this.source.read(this.buf, this.end);
      n = typeof more === 'number' ? more : await more;
    }
    if (n === 0) {
      this.eof = true;
      return this.finishTail();
    }
    return this.end > this.pos;
  }

  close(): void {
    this.source.close();
  }
}
