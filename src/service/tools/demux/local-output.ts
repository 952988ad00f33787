/**
 * The output thread's work done on the parsing thread: the same copy operations (copy-ops.ts)
 * run against the same writers, right when a batch is full or a chunk is retired, so the bytes
 * written are the same. A second thread pays off when a core is free to run it; it costs a
 * thread's start (a Node environment, 30 ms of CPU and more, and a wait on a loaded machine)
 * and the hand-over of every batch and chunk, which is all loss for a small lane or on a busy
 * machine, where the CPU time a lane needs decides how soon it is done.
 */
import { availableParallelism, loadavg } from 'node:os';
import { executeOps } from './copy-ops';
import { CompressionPool, FastqWriter } from './fastq-writer';

/** Input bytes below which a lane is done before an output thread would have started. */
const THREAD_MIN_BYTES = 48 * 1024 * 1024;

/**
 * True when an output thread is worth starting: a lane large enough, and a core to spare (the
 * last minute's load average below the cores less half of one, the parser's own).
 */
export function outputThreadPays(inputBytes: number): boolean {
  if (inputBytes < THREAD_MIN_BYTES) return false;
  return loadavg()[0]! < availableParallelism() - 0.5;
}

export class LocalOutput {
  readonly pool: CompressionPool;
  private writers: FastqWriter[];

  /** Level 0 writes plain files, written synchronously; gzip members are deflated on the thread pool. */
  constructor(files: string[], level: number) {
    this.pool = new CompressionPool(level);
    this.writers = files.map((f) => new FastqWriter(f, level > 0 ? this.pool : null));
  }

  /** Runs `n` int32s of operations; `chunks` holds every chunk they name. */
  run(ops: Int32Array, n: number, chunks: Buffer[]): void {
    executeOps(ops, n, this.writers, chunks);
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
