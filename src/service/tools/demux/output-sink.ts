/**
 * The parsing side of the output: the record handlers describe each output record as copy
 * operations (copy-ops.ts) on the input chunks, in batches. The batches run here (local-output.ts)
 * or on the output thread (demux-output-thread.ts), whichever the lane measures faster
 * (output-mode.ts); the files move between the two between batches, so the bytes are the same.
 * Here, a batch runs when it is full or a chunk is retired. With the thread, batches are sent to
 * it and chunks lent to it as the readers move past them, and the chunks out are bounded, so
 * memory stays flat when the disk or the compression is the slower side.
 */
import { closeSync } from 'node:fs';
import type { Chunk, ChunkPool } from './chunk-pool';
import { BYTE, OP_INTS, PLUS_LINE, RESERVE } from './copy-ops';
import { LocalOutput } from './local-output';
import type { OutputChooser, OutputMode } from './output-mode';
import type { OutputThread } from './output-thread';
import type { OutputReply } from './output-thread-messages';

/** Operations per batch (about 16k records with one span each). */
const BATCH_OPS = 16 * 1024;
/** Chunks (4 MB each) lent to the output thread before the parser waits. */
const MAX_CHUNKS_LENT = 12;

export class OutputSink {
  private local: LocalOutput | null;
  /** The files' descriptors, opened here and closed here whichever thread wrote last. */
  private readonly fds: number[];
  mode: OutputMode = 'here';
  private wanted: OutputMode = 'here';
  private ops = new Int32Array(BATCH_OPS * OP_INTS);
  private n = 0;
  private readonly spare: ArrayBuffer[] = [];
  private sent = 0;
  private acked = 0;
  /** The chunks each batch in flight names (by sequence number), and the batch being filled. */
  private readonly names = new Map<number, number[]>();
  private naming: number[] = [];
  private lastChunk = -1;
  /** Reads so far (from tick), the reads each batch in flight ends at, and the reads written. */
  private reads = 0;
  private readonly readsAt = new Map<number, number>();
  private completed = 0;
  /** Mode switches made (for tests and the report). */
  switches = 0;
  private closed = false;
  /** Set once abort() began: operations not yet run are dropped, never run on closed files. */
  private aborting = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  /**
   * `files` are numbered as the operations name them; level 0 writes plain files. They are
   * opened here; `thread` may take them when `chooser` says so.
   */
  constructor(
    private readonly files: string[],
    private readonly level: number,
    private readonly chunks: ChunkPool,
    private thread: OutputThread | null,
    private readonly chooser: OutputChooser,
  ) {
    this.local = new LocalOutput(files, level);
    this.fds = this.local.fds;
    thread?.listen((msg) => this.onReply(msg));
    chunks.listen((chunk: Chunk) => {
      // The operations naming the chunk go first: here they run before it is read into again;
      // the thread returns it after running them.
      this.send();
      if (this.local) {
        chunks.reuse(chunk);
        return;
      }
      const memory = chunk.buf.buffer as ArrayBuffer;
      this.thread!.post({ type: 'chunk', id: chunk.id, memory }, [memory]);
    });
  }

  /**
   * A thread given once the lane's first read showed that it may pay (demultiplexer.ts); the
   * chooser moves the files to it once it is ready.
   */
  attach(thread: OutputThread): void {
    if (this.thread) throw new Error('The output already has a thread');
    this.thread = thread;
    thread.listen((msg) => this.onReply(msg));
  }

  private released: Extract<OutputReply, { type: 'released' }> | null = null;

  private onReply(msg: OutputReply): void {
    if (msg.type === 'ack') {
      this.acked = msg.seq;
      this.names.delete(msg.seq);
      this.completed = this.readsAt.get(msg.seq) ?? this.completed;
      this.readsAt.delete(msg.seq);
      this.spare.push(msg.ops);
    } else if (msg.type === 'chunk') this.chunks.returned(msg.id, msg.memory);
    else if (msg.type === 'released') this.released = msg;
    else if (msg.type === 'closed') this.closed = true;
    else if (msg.type === 'error' && this.mode === 'thread') {
      this.fail(Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {}));
    }
    this.notify();
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

  /** The batch being filled and its length: a native scan appends copy operations to it. */
  get batch(): Int32Array {
    return this.ops;
  }

  get batchLength(): number {
    return this.n;
  }

  /** After a native scan appended operations up to `n`, each naming `chunk` (as copy() does). */
  appended(n: number, chunk: number): void {
    if (n === this.n) return;
    this.n = n;
    if (chunk !== this.lastChunk && chunk >= 0) {
      this.lastChunk = chunk;
      if (!this.naming.includes(chunk)) this.naming.push(chunk);
    }
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

  /** Runs or sends the operations so far (before each chunk is retired, and when the batch is full). */
  send(): void {
    if (this.n === 0) return;
    if (this.aborting) {
      // A read ahead that ends after a failure retires its chunk: the files are closed by now.
      this.n = 0;
      this.naming.length = 0;
      this.lastChunk = -1;
      return;
    }
    if (this.local) {
      this.local.run(this.ops, this.n, this.chunks.buffers);
      this.n = 0;
      this.naming.length = 0;
      this.lastChunk = -1;
      return;
    }
    const seq = ++this.sent;
    this.names.set(seq, this.naming);
    this.readsAt.set(seq, this.reads);
    this.naming = [];
    this.lastChunk = -1;
    const buffer = this.ops.buffer as ArrayBuffer;
    this.thread!.post({ type: 'ops', seq, ops: buffer, n: this.n }, [buffer]);
    const next = this.spare.pop();
    this.ops = next ? new Int32Array(next) : new Int32Array(BATCH_OPS * OP_INTS);
    this.n = 0;
  }

  /** Every 1,024 reads: what the lane measured so far goes to the chooser. */
  tick(reads: number, ms: number): void {
    this.reads = reads;
    const done = this.local ? reads : this.completed;
    const usable = !!this.thread && !this.thread.failure;
    this.wanted = usable ? this.chooser.next(this.mode, done, ms, this.thread!.ready) : 'here';
  }

  /** True when the parser should wait for the output (or the output should change threads). */
  get saturated(): boolean {
    if (this.wanted !== this.mode) return true;
    if (this.local) return this.local.pool.saturated;
    return this.chunks.lent >= MAX_CHUNKS_LENT || this.failure !== null;
  }

  /**
   * Changes threads when the chooser said so; then waits until fewer chunks are lent, unless the
   * thread waits on a chunk the readers still hold (the oldest batch in flight names one): then
   * parsing on is what frees it.
   */
  async drain(): Promise<void> {
    if (this.wanted !== this.mode) await (this.wanted === 'thread' ? this.toThread() : this.toHere());
    if (this.local) return this.local.pool.slot();
    await this.until(() => {
      if (this.chunks.lent < MAX_CHUNKS_LENT) return true;
      const oldest = this.names.get(this.acked + 1);
      return !!oldest && oldest.some((c) => this.chunks.held.has(c));
    });
  }

  /** The files to the thread: every operation so far runs here first, every gzip member is written. */
  private async toThread(): Promise<void> {
    const thread = this.thread!;
    await thread.started();
    if (thread.failure || !this.local) {
      this.wanted = 'here';
      return;
    }
    this.send();
    const states = await this.local.handOver();
    this.local = null;
    this.mode = 'thread';
    this.completed = this.reads;
    this.switches++;
    thread.post(
      { type: 'adopt', states, level: this.level },
      states.map((s) => s.block),
    );
  }

  /** The files back from the thread, with its chunks; the batches it had not run run here. */
  private async toHere(): Promise<void> {
    this.send();
    this.released = null;
    this.thread!.post({ type: 'release' });
    await this.until(() => this.released !== null);
    const { states, chunks, batches } = this.released!;
    this.released = null;
    for (const c of chunks) this.chunks.returned(c.id, c.memory);
    const local = new LocalOutput(this.files, this.level, states);
    for (const b of batches) {
      local.run(new Int32Array(b.ops), b.n, this.chunks.buffers);
      this.spare.push(b.ops);
    }
    this.names.clear();
    this.readsAt.clear();
    this.acked = this.sent;
    this.local = local;
    this.mode = 'here';
    this.switches++;
  }

  /** Writes everything and closes the files; throws a write or compression failure. */
  async finish(): Promise<void> {
    this.send();
    if (this.local) {
      await this.local.finish();
      this.closed = true;
      await this.thread?.stop();
      return;
    }
    this.thread!.post({ type: 'finish' });
    await this.until(() => this.closed);
    this.closeFiles();
    await this.thread!.stop();
  }

  /** Closes the files the thread ended (or, after a failure, left). */
  private closeFiles(): void {
    for (const fd of this.fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }

  /** After a failure: lets the writes in flight end, closes the files and stops the thread. */
  async abort(): Promise<void> {
    this.aborting = true;
    if (this.local) {
      if (!this.closed) await this.local.abort();
      this.closed = true;
      await this.thread?.stop();
      return;
    }
    const thread = this.thread!;
    if (!this.closed && !thread.failure) {
      thread.post({ type: 'abort' });
      while (!this.closed && !thread.failure) await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.closed = true;
    await thread.stop();
    this.closeFiles();
  }
}
