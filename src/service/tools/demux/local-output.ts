/**
 * The output thread's work done on the parsing thread: the same copy operations (copy-ops.ts)
 * run against the same writers, right when a batch is full or a chunk is retired, so the bytes
 * written are the same. Which thread runs them, and when the files move between the two, is
 * decided from measurements (output-mode.ts).
 */
import { executeOps } from './copy-ops';
import { CompressionPool, FastqWriter, type WriterState } from './fastq-writer';

export class LocalOutput {
  readonly pool: CompressionPool;
  private writers: FastqWriter[];
  /** The files' descriptors: this thread opened them and closes them, whichever wrote last. */
  readonly fds: number[];

  /**
   * Level 0 writes plain files, written synchronously; gzip members are deflated on the thread
   * pool. `states`: take over the writers the output thread handed back, instead of opening.
   */
  constructor(files: string[], level: number, states?: WriterState[]) {
    this.pool = new CompressionPool(level);
    const pool = level > 0 ? this.pool : null;
    this.writers = states
      ? states.map((st) => new FastqWriter('', pool, st))
      : files.map((f) => new FastqWriter(f, pool));
    this.fds = this.writers.map((w) => w.fd);
  }

  /** Runs `n` int32s of operations; `chunks` holds every chunk they name. */
  run(ops: Int32Array, n: number, chunks: Buffer[]): void {
    executeOps(ops, n, this.writers, chunks);
  }

  /** Once every gzip member is written: the writers, for the output thread (the files stay open). */
  async handOver(): Promise<WriterState[]> {
    await this.pool.idle();
    const states = this.writers.map((w) => w.handOver());
    this.writers = [];
    return states;
  }

  /** Writes what is buffered, waits for every gzip member, closes the files. */
  async finish(): Promise<void> {
    for (const w of this.writers) w.flush();
    await this.pool.idle();
    this.close();
  }

  /** After a failure: lets the gzip members in flight end, then closes the files. */
  async abort(): Promise<void> {
    await this.pool.idle().catch(() => undefined);
    this.close();
  }

  private close(): void {
    for (const w of this.writers) w.close();
    this.writers = [];
  }
}
