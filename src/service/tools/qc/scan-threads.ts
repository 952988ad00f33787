/**
 * Quality-control scanning across threads: buffers are transferred (zero copy) to the least
 * busy helper thread, at most two per thread in flight; when every helper is busy (or still
 * starting) the calling thread scans the buffer itself, which also keeps reading from running
 * ahead of scanning.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FastqFormatError } from '../fastq-format-error';
import { scanRecords } from './fastq-scan';
import { createCounts, mergeCounts, type QcCounts } from './qc-counts';
import type { ThreadReply, ThreadRequest } from './qc-thread-messages';
import { SAMPLE_READS, SampleCollector, type SampleChunk } from './sequence-sample';

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
  /** True once the thread has loaded its code and listens. */
  ready: boolean;
  /** True when the thread could not start (this thread then scans its share). */
  dead: boolean;
  inFlight: number;
}

interface ChunkOutcome {
  reads: number;
  sample?: SampleChunk;
  error?: { line: number; reason: string };
}

export class ScanThreads {
  private readonly outcomes = new Map<number, ChunkOutcome>();
  /** What the calling thread scanned itself. */
  private readonly local = createCounts();
  private sampling = true;
  private sampledReads = 0;
  private crash: Error | null = null;
  private wake: (() => void) | null = null;
  failed = false;

  private constructor(private readonly slots: Slot[]) {
    for (const slot of slots) {
      slot.worker.on('message', (msg: ThreadReply) => {
        if (msg.type === 'ready') {
          slot.ready = true;
          this.notify();
        }
        if (msg.type !== 'chunk') return;
        slot.inFlight--;
        this.record(msg.index, { reads: msg.reads, sample: msg.sample, error: msg.error });
        this.notify();
      });
      slot.worker.on('error', (err) => {
        // a helper that never started costs only speed; one that dies holding chunks loses them
        if (!slot.ready) slot.dead = true;
        else {
          this.crash = err;
          this.failed = true;
        }
        this.notify();
      });
    }
  }

  /**
   * Starts `n` helper threads without waiting for them: until a thread is ready, and whenever
   * all are busy, the calling thread scans the chunk itself, so thread start-up costs nothing.
   */
  static start(n: number): ScanThreads {
    return new ScanThreads(
      Array.from({ length: n }, () => ({ worker: startThread(), ready: false, dead: false, inFlight: 0 })),
    );
  }

  /** Resolves once every helper thread is ready (tests use it to make sure helpers take part). */
  async ready(): Promise<void> {
    await this.waitUntil(() => this.slots.every((s) => s.ready || s.dead));
  }

  private record(index: number, outcome: ChunkOutcome): void {
    this.outcomes.set(index, outcome);
    if (outcome.error) this.failed = true;
    if (outcome.sample) {
      this.sampledReads += outcome.reads;
      if (this.sampledReads >= SAMPLE_READS) this.sampling = false;
    }
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

  private scanHere(index: number, buf: Buffer, sample: boolean): void {
    const collector = sample ? new SampleCollector(SAMPLE_READS) : undefined;
    try {
      const { reads } = scanRecords(this.local, buf, 0, buf.length, 1, Infinity, collector);
      this.record(index, { reads, sample: collector && { keys: collector.keys, seqs: collector.seqs } });
    } catch (err) {
      if (!(err instanceof FastqFormatError)) throw err;
      this.record(index, { reads: 0, error: { line: err.line, reason: err.reason } });
    }
  }

  /** Scans chunk `index` on a free helper thread, or here when none is free. */
  async submit(index: number, buf: Buffer): Promise<void> {
    if (this.crash) throw this.crash;
    let slot: Slot | undefined;
    for (const s of this.slots)
      if (s.ready && s.inFlight < IN_FLIGHT_PER_THREAD && (!slot || s.inFlight < slot.inFlight)) slot = s;
    if (!slot) {
      this.scanHere(index, buf, this.sampling);
      // let replies from the threads in before the next chunk is handed out
      await new Promise<void>((resolve) => setImmediate(resolve));
      return;
    }
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
    mergeCounts(counts, this.local);
    const used = this.slots.filter((s) => s.ready);
    const parts = await Promise.all(
      used.map(
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
