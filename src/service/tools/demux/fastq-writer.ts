/**
 * Output files of the demultiplexer (used on its output thread). Records are appended into a
 * large Buffer per file; a full buffer is written synchronously (plain) or compressed as one
 * gzip member on the libuv thread pool (gzip), so that compression of many blocks runs on every
 * core while the records of the next ones are copied. Concatenated gzip members are a valid
 * gzip file (as BGZF and pigz use them); each file's members are written in order.
 */
import { closeSync, openSync, write, writeSync } from 'node:fs';
import { gzip, gzipSync } from 'node:zlib';

const BLOCK_BYTES = 1024 * 1024;

/**
 * Bounds the gzip blocks in flight across all files, so memory stays flat; compressing and
 * writing them happens on libuv's thread pool.
 */
export class CompressionPool {
  inFlight = 0;
  private waiters: Array<() => void> = [];
  /** Blocks whose bytes are written, reused: a fresh megabyte per block keeps the GC busy. */
  private readonly free: Buffer[] = [];
  private failure: Error | null = null;

  constructor(
    readonly level: number,
    readonly maxInFlight = 8,
  ) {}

  /** True when the producer should wait before filling more blocks. */
  get saturated(): boolean {
    return this.inFlight >= this.maxInFlight;
  }

  /** Resolves when a block slot is free (rethrows a compression or write failure). */
  async slot(): Promise<void> {
    while (this.inFlight >= this.maxInFlight) await new Promise<void>((r) => this.waiters.push(r));
    if (this.failure) throw this.failure;
  }

  /** Resolves when every block has been compressed and written. */
  async idle(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((r) => this.waiters.push(r));
    if (this.failure) throw this.failure;
  }

  started(): void {
    this.inFlight++;
  }

  /** A block to fill (recycled when one is free). */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(BLOCK_BYTES);
  }

  /** Returns a block whose bytes are no longer needed. */
  give(block: Buffer): void {
    if (block.length === BLOCK_BYTES && this.free.length < 2 * this.maxInFlight) this.free.push(block);
  }

  finished(err?: Error | null): void {
    this.inFlight--;
    if (err && !this.failure) this.failure = err;
    for (const w of this.waiters.splice(0)) w();
  }
}

/**
 * A writer handed from one thread to the other (output-sink.ts): its open file, the block being
 * filled (transferred, so that blocks fall where they would have), and what was written. Taken
 * only when no gzip member is in flight, so the file's bytes so far are all written.
 */
export interface WriterState {
  fd: number;
  block: ArrayBuffer;
  len: number;
  written: number;
  members: number;
}

/** One output FASTQ file; callers write into `buf` at `len` after `reserve(n)`. */
export class FastqWriter {
  buf: Buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  len = 0;
  /** Bytes handed to the file (uncompressed). */
  written = 0;
  readonly fd: number;
  /** gzip members compressed out of order are kept until their turn. */
  private nextToSubmit = 0;
  private nextToWrite = 0;
  private readonly ready = new Map<number, Buffer>();

  /** Opens `path` for writing, or takes over a writer another thread had (`from`). */
  constructor(
    path: string,
    private readonly pool: CompressionPool | null,
    from?: WriterState,
  ) {
    if (!from) {
      this.fd = openSync(path, 'w');
      return;
    }
    this.fd = from.fd;
    this.buf = Buffer.from(from.block);
    this.len = from.len;
    this.written = from.written;
    this.nextToSubmit = this.nextToWrite = from.members;
  }

  /**
   * The writer's state for another thread, once the pool is idle; the file stays open, and this
   * writer is not used again.
   */
  handOver(): WriterState {
    const block = this.buf.buffer as ArrayBuffer;
    // A block of its own (allocUnsafe of a megabyte never shares the small-buffer pool).
    if (this.buf.byteOffset !== 0 || block.byteLength !== this.buf.length) throw new Error('a shared block');
    const state = { fd: this.fd, block, len: this.len, written: this.written, members: this.nextToSubmit };
    this.buf = Buffer.alloc(0);
    this.len = 0;
    return state;
  }

  /** Makes room for n more bytes in the buffer. */
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  /** Hands the buffered bytes to the file. */
  flush(): void {
    if (this.len === 0) return;
    // Plain blocks are written at their offsets: written here or on the thread pool, in any
    // order, and a file handed between threads never depends on its descriptor's position.
    const position = this.written;
    this.written += this.len;
    if (!this.pool) {
      writeSync(this.fd, this.buf, 0, this.len, position);
      this.len = 0;
      return;
    }
    if (this.pool.level === 0) {
      // A plain block written on the thread pool while the next ones are filled.
      const whole = this.buf;
      const len = this.len;
      this.buf = this.pool.take();
      this.len = 0;
      const pool = this.pool;
      pool.started();
      write(this.fd, whole, 0, len, position, (err) => {
        pool.give(whole);
        pool.finished(err);
      });
      return;
    }
    const whole = this.buf;
    const block = whole.subarray(0, this.len);
    this.buf = this.pool.take();
    this.len = 0;
    const seq = this.nextToSubmit++;
    const pool = this.pool;
    pool.started();
    gzip(block, { level: pool.level }, (err, member) => {
      pool.give(whole);
      try {
        if (err) throw err;
        this.ready.set(seq, member);
        for (let m = this.ready.get(this.nextToWrite); m; m = this.ready.get(this.nextToWrite)) {
          this.ready.delete(this.nextToWrite++);
          writeSync(this.fd, m);
        }
        pool.finished();
      } catch (e) {
        pool.finished(e as Error);
      }
    });
  }

  /** Ends the file once the pool is idle (call `flush()` first), leaving it open. */
  end(): void {
    // A sample without reads still gets a valid (empty) gzip file, not zero bytes.
    if (this.pool && this.pool.level > 0 && this.nextToSubmit === 0) writeSync(this.fd, gzipSync(Buffer.alloc(0)));
    this.nextToSubmit = Math.max(this.nextToSubmit, 1);
  }

  /** Ends and closes the file once the pool is idle (call `flush()` first). */
  close(): void {
    this.end();
    closeSync(this.fd);
  }
}
