/**
 * A small pool of quality-control scanning threads. Buffers are transferred (zero copy) to the
 * least busy thread, at most two per thread in flight so that reading stays just ahead of
 * scanning without buffering the file in memory.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FastqFormatError } from './fastq-scan';
import { createCounts, mergeCounts, type QcCounts } from './qc-counts';
import type { ThreadReply, ThreadRequest } from './qc-thread-messages';
import { SAMPLE_READS, type SampleChunk } from './sequence-sample';

const IN_FLIGHT_PER_THREAD = 2;

/**
 * Starts the thread entry: the built .js beside this file, or the .ts source through tsx's
 * loader, registered inside the new thread (an `--import` in a worker's execArgv is not applied
 * before the entry loads on Node 20).
 */
function startThread(): Worker {
  const js = fileURLToPath(new URL('./qc-thread.js', import.meta.url));
  if (existsSync(js)) return new Worker(js);
  const cjsApi = createRequire(import.meta.url).resolve('tsx/esm/api');
  const api = pathToFileURL(cjsApi.replace(/\.cjs$/, '.mjs')).href;
  const ts = new URL('./qc-thread.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`;
  return new Worker(boot, { eval: true });
}

interface Slot {
  worker: Worker;
  inFlight: number;
}

interface ChunkOutcome {
  reads: number;
  sample?: SampleChunk;
  error?: { line: number; reason: string };
}

export class ScanThreads {
  private readonly outcomes = new Map<number, ChunkOutcome>();
  private sampling = true;
  private sampledReads = 0;
  private crash: Error | null = null;
  private wake: (() => void) | null = null;
  failed = false;

  private constructor(private readonly slots: Slot[]) {
    for (const slot of slots) {
      slot.worker.on('message', (msg: ThreadReply) => {
        if (msg.type !== 'chunk') return;
        slot.inFlight--;
        this.outcomes.set(msg.index, { reads: msg.reads, sample: msg.sample, error: msg.error });
        if (msg.error) this.failed = true;
        if (msg.sample) {
          this.sampledReads += msg.reads;
          if (this.sampledReads >= SAMPLE_READS) this.sampling = false;
        }
        this.notify();
      });
      slot.worker.on('error', (err) => {
        this.crash = err;
        this.failed = true;
        this.notify();
      });
    }
  }

  /** Starts `n` threads and waits until they are up. */
  static async start(n: number): Promise<ScanThreads> {
    const slots = await Promise.all(
      Array.from({ length: n }, async () => {
        const worker = startThread();
        await new Promise<void>((resolve, reject) => {
          worker.once('online', resolve);
          worker.once('error', reject);
        });
        return { worker, inFlight: 0 };
      }),
    );
    return new ScanThreads(slots);
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private async waitUntil(ready: () => boolean): Promise<void> {
    while (!ready()) {
      if (this.crash) throw this.crash;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.crash) throw this.crash;
  }

  /** Hands chunk `index` to the least busy thread; resolves once there is room for more. */
  async submit(index: number, buf: Buffer): Promise<void> {
    const slot = this.slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    slot.inFlight++;
    const owned = buf.byteOffset === 0 && buf.buffer.byteLength >= buf.length ? buf : Buffer.from(buf);
    const msg: ThreadRequest = {
      type: 'chunk',
      index,
      buffer: owned.buffer as ArrayBuffer,
      length: owned.length,
      sample: this.sampling,
    };
    slot.worker.postMessage(msg, [owned.buffer as ArrayBuffer]);
    await this.waitUntil(() => this.slots.some((s) => s.inFlight < IN_FLIGHT_PER_THREAD));
  }

  /** Waits for every chunk, then merges the threads' counters; throws the first format error. */
  async finish(): Promise<{ counts: QcCounts; sample: SampleChunk[] }> {
    await this.waitUntil(() => this.slots.every((s) => s.inFlight === 0));
    const indexes = [...this.outcomes.keys()].sort((a, b) => a - b);
    let linesBefore = 0;
    const sample: SampleChunk[] = [];
    for (const i of indexes) {
      const o = this.outcomes.get(i)!;
      if (o.error) throw new FastqFormatError(linesBefore + o.error.line, o.error.reason);
      if (o.sample) sample.push(o.sample);
      linesBefore += 4 * o.reads;
    }
    const counts = createCounts();
    const parts = await Promise.all(
      this.slots.map(
        (s) =>
          new Promise<QcCounts>((resolve) => {
            s.worker.on('message', (msg: ThreadReply) => msg.type === 'counts' && resolve(msg.counts));
            s.worker.postMessage({ type: 'finish' } satisfies ThreadRequest);
          }),
      ),
    );
    for (const part of parts) mergeCounts(counts, part);
    return { counts, sample };
  }

  /** Stops every thread. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
