/**
 * Password hashing off libuv's threadpool. node's async `scrypt` runs on the same four threads
 * that every file read and write uses, so a flood of sign-ins (each a 16 MiB, ~50 ms scrypt)
 * once stalled uploads and downloads for seconds. Here scrypt runs synchronously inside a small
 * pool of worker threads of our own: at most `threads` hashes at a time, whatever arrives, and a
 * bounded queue in two lanes: sign-ins from addresses with no recent failure go first, so an
 * attack from elsewhere cannot queue the admin out. A full lane answers 429 at once instead of
 * growing. Threads are unref'd and end after a quiet spell. The composition root builds the
 * service's pool (`ctx.parts.passwords`) and closes it at shutdown; the account CLI builds its own.
 */
import { Worker } from 'node:worker_threads';
import { ApiError } from '../http/api-error';

/** The thread's whole program: a CommonJS script, so it runs the same under tsx, Node and Electron. */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', (m) => {
  try {
    const key = scryptSync(m.password, Buffer.from(m.salt), m.keyBytes, m.options);
    parentPort.postMessage({ id: m.id, key });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message) });
  }
});
`;

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyBytes: number;
  options: { N: number; r: number; p: number; maxmem: number };
}

export type Lane = 'priority' | 'normal';

interface Pending {
  job: ScryptJob;
  resolve(key: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  busy: (Pending & { id: number }) | null;
  idle: NodeJS.Timeout | null;
}

export interface PasswordPoolOptions {
  /** Hashes computed at once (one core each). */
  threads: number;
  /** Waiting hashes per lane before new ones are refused. */
  queue: Record<Lane, number>;
  /** A thread with nothing to do for this long ends. */
  idleMs: number;
}

export const DEFAULT_POOL: PasswordPoolOptions = {
  threads: 1,
  queue: { priority: 64, normal: 16 },
  idleMs: 30_000,
};

export class PasswordPool {
  private readonly slots: Slot[] = [];
  private readonly queues: Record<Lane, Pending[]> = { priority: [], normal: [] };
  private nextId = 1;
  /** Hashes computed since start (tests count them to see which attempts cost one). */
  completed = 0;
  /** Recent hash durations, for the timing of answers that skip the hash. */
  private readonly durations: number[] = [];

  constructor(private readonly options: PasswordPoolOptions = DEFAULT_POOL) {}

  /** Derives a scrypt key on a pool thread; 429 RATE_LIMITED when the lane's queue is full. */
  derive(job: ScryptJob, lane: Lane = 'normal'): Promise<Buffer> {
    const queue = this.queues[lane];
    if (queue.length >= this.options.queue[lane]) {
      return Promise.reject(
        new ApiError(
          'RATE_LIMITED',
          'The service is checking many sign-ins at the moment: try again in a second',
          { retry_after: 1 },
          { 'retry-after': '1' },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  /** Hashes waiting or running (for tests and the benchmark). */
  get load(): number {
    return this.queues.priority.length + this.queues.normal.length + this.slots.filter((s) => s.busy).length;
  }

  /** The median of recent hash durations in ms (a default before any hash ran). */
  typicalMs(): number {
    if (this.durations.length === 0) return 50;
    const sorted = [...this.durations].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }

  private pump(): void {
    for (;;) {
      const next = this.queues.priority[0] ?? this.queues.normal[0];
      if (!next) return;
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.options.threads) slot = this.startSlot();
      if (!slot) return;
      (this.queues.priority[0] === next ? this.queues.priority : this.queues.normal).shift();
      this.run(slot, next);
    }
  }

  private run(slot: Slot, pending: Pending): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const id = this.nextId++;
    slot.busy = { ...pending, id };
    const started = performance.now();
    const { password, salt, keyBytes, options } = pending.job;
    slot.worker.postMessage({ id, password, salt: new Uint8Array(salt), keyBytes, options });
    slot.worker.ref();
    const onMessage = (msg: { id: number; key?: Uint8Array; error?: string }) => {
      if (msg.id !== id) return;
      slot.worker.off('message', onMessage);
      slot.worker.unref();
      slot.busy = null;
      this.completed++;
      this.durations.push(performance.now() - started);
      if (this.durations.length > 32) this.durations.shift();
      if (msg.key) pending.resolve(Buffer.from(msg.key));
      else pending.reject(new Error(`scrypt failed: ${msg.error ?? 'unknown'}`));
      slot.idle = setTimeout(() => void this.stopSlot(slot), this.options.idleMs);
      slot.idle.unref();
      this.pump();
    };
    slot.worker.on('message', onMessage);
  }

  private startSlot(): Slot {
    const worker = new Worker(THREAD_SOURCE, { eval: true });
    worker.unref();
    const slot: Slot = { worker, busy: null, idle: null };
    const gone = (err?: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.idle) clearTimeout(slot.idle);
      slot.busy?.reject(new Error(`The password thread stopped: ${err?.message ?? 'exited'}`));
      slot.busy = null;
      this.pump();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
    this.slots.push(slot);
    return slot;
  }

  /** Ends every thread (the service's shutdown); hashes still waiting are refused. */
  async close(): Promise<void> {
    for (const lane of ['priority', 'normal'] as const) {
      for (const p of this.queues[lane].splice(0)) p.reject(new Error('The service is stopping'));
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private async stopSlot(slot: Slot): Promise<void> {
    if (slot.busy) return;
    await slot.worker.terminate();
  }
}
