/**
 * The parsing side of the output: the record handlers describe each output record as copy
 * operations (copy-ops.ts) on the input chunks, batched and sent to the output thread, which
 * does the copying, writing and compressing. Chunks are lent to the thread as the readers move
 * past them, and the chunks out are bounded, so memory stays flat when the disk or the
 * compression is the slower side. Without a thread (local-output.ts: small lanes, busy
 * machines) the same operations run here, each batch when it is full or a chunk is retired.
 */
import type { Worker } from 'node:worker_threads';
import { startBundledThread } from '../../../node/bundled-thread';
import type { Chunk, ChunkPool } from './chunk-pool';
import { BYTE, OP_INTS, PLUS_LINE, RESERVE } from './copy-ops';
import { LocalOutput } from './local-output';
import type { OutputReply, OutputRequest } from './output-thread-messages';

/** Operations per batch (about 16k records with one span each). */
const BATCH_OPS = 16 * 1024;
/** Chunks (4 MB each) lent to the output thread before the parser waits. */
const MAX_CHUNKS_LENT = 12;

export class OutputSink {
  private readonly worker: Worker | null = null;
  private readonly local: LocalOutput | null = null;
  private ops = new Int32Array(BATCH_OPS * OP_INTS);
  private n = 0;
  private readonly spare: ArrayBuffer[] = [];
  private sent = 0;
  private acked = 0;
  /** The chunks each batch in flight names (by sequence number), and the batch being filled. */
  private readonly names = new Map<number, number[]>();
  private naming: number[] = [];
  private lastChunk = -1;
  private closed = false;
  private exited = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  /**
   * `files` are numbered as the operations name them; level 0 writes plain files. `thread`:
   * run the operations on an output thread, else here.
   */
  constructor(
    files: string[],
    level: number,
    private readonly chunks: ChunkPool,
    thread = true,
  ) {
    if (!thread) {
      this.local = new LocalOutput(files, level);
      chunks.listen((chunk: Chunk) => {
        // The operations naming the chunk run before it is read into again.
        this.send();
        chunks.reuse(chunk);
      });
      return;
    }
    const worker = startBundledThread(import.meta.url, './demux-output-thread');
    this.worker = worker;
    worker.on('message', (msg: OutputReply) => {
      if (msg.type === 'ack') {
        this.acked = msg.seq;
        this.names.delete(msg.seq);
        this.spare.push(msg.ops);
      } else if (msg.type === 'chunk') this.chunks.returned(msg.id, msg.memory);
      else if (msg.type === 'closed') this.closed = true;
      else if (msg.type === 'error')
        this.fail(Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {}));
      this.notify();
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      this.exited = true;
      if (!this.closed) this.fail(new Error(`The demultiplexer's output thread stopped (exit code ${code})`));
    });
    this.post({ type: 'open', files, level });
    chunks.listen((chunk) => {
      // The operations naming the chunk go first: the thread returns it after running them.
      this.send();
      const memory = chunk.buf.buffer as ArrayBuffer;
      this.post({ type: 'chunk', id: chunk.id, memory }, [memory]);
    });
  }

  private post(msg: OutputRequest, transfer: ArrayBuffer[] = []): void {
    this.worker!.postMessage(msg, transfer);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.failure) throw this.failure;
  }

  /** Copy chunk bytes [a, b) to a file. */
  copy(file: number, chunk: number, a: number, b: number): void {
    if (this.n === this.ops.length) this.send();
    if (chunk !== this.lastChunk && chunk >= 0) {
      this.lastChunk = chunk;
      if (!this.naming.includes(chunk)) this.naming.push(chunk);
    }
    const o = this.ops;
    const n = this.n;
    o[n] = file;
    o[n + 1] = chunk;
    o[n + 2] = a;
    o[n + 3] = b;
    this.n = n + OP_INTS;
  }

  /** Room for a record of at most `bytes` in the file's current block. */
  reserve(file: number, bytes: number): void {
    this.copy(file, RESERVE, bytes, 0);
  }

  byte(file: number, value: number): void {
    this.copy(file, BYTE, value, 0);
  }

  plusLine(file: number): void {
    this.copy(file, PLUS_LINE, 0, 0);
  }

  /** Sends the operations so far (before each chunk is lent, and when the batch is full). */
  send(): void {
    if (this.n === 0) return;
    if (this.local) {
      this.local.run(this.ops, this.n, this.chunks.buffers);
      this.n = 0;
      this.naming.length = 0;
      this.lastChunk = -1;
      return;
    }
    const seq = ++this.sent;
    this.names.set(seq, this.naming);
    this.naming = [];
    this.lastChunk = -1;
    const buffer = this.ops.buffer as ArrayBuffer;
    this.post({ type: 'ops', seq, ops: buffer, n: this.n }, [buffer]);
    const next = this.spare.pop();
    this.ops = next ? new Int32Array(next) : new Int32Array(BATCH_OPS * OP_INTS);
    this.n = 0;
  }

  /** True when the parser should wait for the output thread. */
  get saturated(): boolean {
    if (this.local) return this.local.pool.saturated;
    return this.chunks.lent >= MAX_CHUNKS_LENT || this.failure !== null;
  }

  /**
   * Waits until fewer chunks are lent, unless the thread waits on a chunk the readers still hold
   * (the oldest batch in flight names one): then parsing on is what frees it.
   */
  async drain(): Promise<void> {
    if (this.local) return this.local.pool.slot();
    await this.until(() => {
      if (this.chunks.lent < MAX_CHUNKS_LENT) return true;
      const oldest = this.names.get(this.acked + 1);
      return !!oldest && oldest.some((c) => this.chunks.held.has(c));
    });
  }

  /** Writes everything and closes the files; throws a write or compression failure. */
  async finish(): Promise<void> {
    this.send();
    if (this.local) {
      await this.local.finish();
      this.closed = true;
      return;
    }
    this.post({ type: 'finish' });
    await this.until(() => this.closed);
    await this.worker!.terminate();
  }

  /** After a failure: lets the writes in flight end, closes the files and stops the thread. */
  async abort(): Promise<void> {
    if (this.local) {
      if (!this.closed) await this.local.abort();
      this.closed = true;
      return;
    }
    if (!this.closed && !this.exited) {
      this.post({ type: 'abort' });
      while (!this.closed && !this.exited) await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.closed = true;
    await this.worker!.terminate();
  }
}
