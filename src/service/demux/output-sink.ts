/**
 * The parsing side of the output thread: the record handlers describe each output record as
 * copy operations (copy-ops.ts) on the shared input chunks, batched and sent to the thread,
 * which does the copying, writing and compressing. Batches in flight are bounded, so memory
 * stays flat when the disk or the compression is the slower side.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../node/start-thread';
import type { ChunkPool } from './chunk-pool';
import { BYTE, OP_INTS, PLUS_LINE, RESERVE } from './copy-ops';
import type { OutputReply, OutputRequest } from './output-thread-messages';

/** Operations per batch (about 16k records with one span each). */
const BATCH_OPS = 16 * 1024;
const MAX_BATCHES_IN_FLIGHT = 8;

export class OutputSink {
  private readonly worker: Worker;
  private ops = new Int32Array(BATCH_OPS * OP_INTS);
  private n = 0;
  private readonly spare: ArrayBuffer[] = [];
  private sent = 0;
  private acked = 0;
  private closed = false;
  private exited = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  /** `files` are numbered as the operations name them; level 0 writes plain files. */
  constructor(
    files: string[],
    level: number,
    private readonly chunks: ChunkPool,
  ) {
    this.worker = startThread(import.meta.url, './demux-output-thread');
    this.worker.on('message', (msg: OutputReply) => {
      if (msg.type === 'ack') {
        this.acked = msg.seq;
        this.chunks.acknowledged(msg.seq);
        this.spare.push(msg.ops);
      } else if (msg.type === 'closed') this.closed = true;
      else if (msg.type === 'error')
        this.fail(Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {}));
      this.notify();
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      this.exited = true;
      if (!this.closed) this.fail(new Error(`The demultiplexer's output thread stopped (exit code ${code})`));
    });
    this.post({ type: 'open', files, level });
    chunks.onCreate((chunk) =>
      this.post({ type: 'chunk', id: chunk.id, memory: chunk.buf.buffer as SharedArrayBuffer }),
    );
  }

  private post(msg: OutputRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(msg, transfer);
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

  /** Sends the operations so far (call before a reader moves on to another chunk). */
  send(): void {
    if (this.n === 0) return;
    const seq = ++this.sent;
    this.chunks.seal(seq);
    const buffer = this.ops.buffer as ArrayBuffer;
    this.post({ type: 'ops', seq, ops: buffer, n: this.n }, [buffer]);
    const next = this.spare.pop();
    this.ops = next ? new Int32Array(next) : new Int32Array(BATCH_OPS * OP_INTS);
    this.n = 0;
  }

  /** True when the parser should wait for the output thread. */
  get saturated(): boolean {
    return this.sent - this.acked >= MAX_BATCHES_IN_FLIGHT || this.failure !== null;
  }

  async drain(): Promise<void> {
    await this.until(() => this.sent - this.acked < MAX_BATCHES_IN_FLIGHT);
  }

  /** Writes everything and closes the files; throws a write or compression failure. */
  async finish(): Promise<void> {
    this.send();
    this.post({ type: 'finish' });
    await this.until(() => this.closed);
    await this.worker.terminate();
  }

  /** After a failure: lets the writes in flight end, closes the files and stops the thread. */
  async abort(): Promise<void> {
    if (!this.closed && !this.exited) {
      this.post({ type: 'abort' });
      while (!this.closed && !this.exited) await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.closed = true;
    await this.worker.terminate();
  }
}
