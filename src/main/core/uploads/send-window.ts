/**
 * The bytes of chunks in flight, shared by every running job: a window that follows the link's
 * measured bandwidth-delay product. Each acknowledged chunk gives a delivery-rate sample (bytes
 * acknowledged while it travelled, over its round trip) and a round-trip sample; the window is
 * twice the best recent rate times the smoothed round trip (at most twice the shortest recent
 * one), plus one chunk. While the
 * link has room the rate a window achieves grows with it, so the window keeps growing (about
 * doubling per round trip); once the link is full the rate stops growing and so does the
 * window. A refused chunk (429, 503, another 5xx) or a network fault halves it at once and
 * forgets the rate samples; from then on it grows by at most one chunk per round trip.
 * Jobs waiting for room are served in turn (one chunk each, round robin), so jobs share it fairly.
 */

export interface SendWindowOptions {
  now?: () => number;
  /** The window before any sample (bytes). */
  initialBytes?: number;
  /** Never below this (bytes); a chunk larger than the window still goes when nothing is in flight. */
  minBytes?: number;
  /** Never above this (bytes): chunks in flight are held in memory. */
  maxBytes?: number;
  /** Small chunks (1 MiB or less) that may be in flight whatever the window (default 16). */
  minSmallChunks?: number;
}

/** A chunk's place in the window, from its send until its answer. */
export interface Ticket {
  readonly job: number;
  readonly bytes: number;
  readonly sentAt: number;
  /** Bytes acknowledged (by any job) when this chunk went: the rate sample's start. */
  readonly deliveredAtSend: number;
}

interface Waiter {
  bytes: number;
  grant: (t: Ticket) => void;
  fail: (err: Error) => void;
}

/**
 * Small chunks (a file of 100 KB or 1 MB is one) cost a round trip and the service's work per
 * request more than bytes: this many of them may be in flight whatever the window. Where round
 * trips vary for other reasons than a queue at the link (a loaded machine: 20 ms to 500 ms; a
 * service that flushes each file), the window settles where the smoothed round trip is a few
 * times the shortest, which was 7 files of 100 KB in flight on loopback and 8 files of 1 MB on
 * the 40 ms link model, half of what the link carries (issue 21). At most 16 MiB more in memory.
 */
const SMALL_CHUNK = 1024 * 1024;
const MIN_SMALL_CHUNKS = 16;

/** Samples kept per bucket of this many ms; the estimate uses the last few buckets. */
const BUCKET_MS = 2_000;
const BUCKETS = 4;
const GAIN = 2;

export class SendWindow {
  private limitBytes: number;
  private inflightBytes = 0;
  private inflightChunks = 0;
  private reservedBytes = new Map<number, number>();
  private delivered = 0;
  private readonly waiting = new Map<number, Waiter[]>();
  /** Jobs in the order they are served; the first is next. */
  private turn: number[] = [];
  private buckets: Array<{ start: number; maxRate: number; minRtt: number }> = [];
  private biggestChunk = 0;
  /** Smoothed round trip (ms), as TCP keeps it. */
  private srtt = 0;
  private readonly now: () => number;
  private readonly min: number;
  private readonly max: number;
  /** Halved with the window on a congestion signal: a service that answered 503 gets fewer requests. */
  private minSmall: number;
  /** The largest window reached (for tests and the benchmark's notes). */
  peakBytes: number;
  /** How many times a congestion signal shrank the window. */
  shrinks = 0;
  /** Chunks sent before the last congestion signal give no rate sample. */
  private congestedAt = -Infinity;
  /**
   * After a congestion signal the window may grow by one chunk per round trip only (it grew by
   * doubling before): the link's rate says nothing about a service that answered 503.
   */
  private ceiling = Infinity;
  private ceilingAt = 0;

  constructor(options: SendWindowOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.min = options.minBytes ?? 256 * 1024;
    this.max = options.maxBytes ?? 32 * 1024 * 1024;
    this.minSmall = options.minSmallChunks ?? MIN_SMALL_CHUNKS;
    this.limitBytes = Math.min(this.max, Math.max(this.min, options.initialBytes ?? 4 * 1024 * 1024));
    this.peakBytes = this.limitBytes;
  }

  get limit(): number {
    return this.limitBytes;
  }

  get inflight(): number {
    return this.inflightBytes;
  }

  /** Room not yet in flight nor promised to a job that is about to send. */
  room(): number {
    let reserved = 0;
    for (const r of this.reservedBytes.values()) reserved += r;
    return this.limitBytes - this.inflightBytes - reserved;
  }

  /** True when a chunk of `bytes` would be granted now (room in the window, or a small chunk under the floor). */
  admits(bytes: number): boolean {
    return this.room() > 0 || this.smallFits(bytes, this.reservedBytes.size);
  }

  private smallFits(bytes: number, pending = 0): boolean {
    return bytes <= SMALL_CHUNK && this.inflightChunks + pending < this.minSmall;
  }

  /** Promises `bytes` of room to a job that is starting (its first chunk), so the scheduler does not overfill. */
  reserve(job: number, bytes: number): void {
    this.reservedBytes.set(job, bytes);
  }

  /** Waits for room for a chunk of `bytes`; the job's reservation, if any, is used up. */
  acquire(job: number, bytes: number, signal?: AbortSignal): Promise<Ticket> {
    this.reservedBytes.delete(job);
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    return new Promise<Ticket>((resolve, reject) => {
      const list = this.waiting.get(job) ?? [];
      const onAbort = () => {
        const at = list.indexOf(waiter);
        if (at < 0) return;
        list.splice(at, 1);
        reject(new Error('aborted'));
        this.serve();
      };
      // The listener goes with the grant: a job of a thousand chunks must not pile them up.
      const waiter: Waiter = {
        bytes,
        grant: (t) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(t);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      list.push(waiter);
      this.waiting.set(job, list);
      if (!this.turn.includes(job)) this.turn.push(job);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.serve();
    });
  }

  /** The chunk was acknowledged: frees its room and takes a rate and round-trip sample. */
  ack(t: Ticket): void {
    this.inflightBytes -= t.bytes;
    this.inflightChunks--;
    this.delivered += t.bytes;
    const now = this.now();
    const rtt = Math.max(0.1, now - t.sentAt);
    if (t.sentAt >= this.congestedAt) this.sample(now, (this.delivered - t.deliveredAtSend) / rtt, rtt);
    this.biggestChunk = Math.max(this.biggestChunk, t.bytes);
    this.srtt = this.srtt ? 0.875 * this.srtt + 0.125 * rtt : rtt;
    // The shortest round trip alone undercounts where round trips vary for other reasons than
    // a queue at the link (a service's disk, a loaded machine): the window then shrank below
    // what the link needs. The smoothed one, up to twice the shortest, bounds queueing.
    const bdp = this.maxRate() * Math.min(this.srtt, 2 * this.minRtt());
    if (Number.isFinite(this.ceiling)) {
      this.ceiling += (this.biggestChunk * (now - this.ceilingAt)) / Math.max(1, this.minRtt());
      this.ceilingAt = now;
    }
    this.limitBytes = Math.min(this.max, this.ceiling, Math.max(this.min, GAIN * bdp + this.biggestChunk));
    this.peakBytes = Math.max(this.peakBytes, this.limitBytes);
    this.serve();
  }

  /** The chunk was refused as overload (429, 503, 5xx) or lost on the network: halve the window. */
  congested(t: Ticket): void {
    this.inflightBytes -= t.bytes;
    this.inflightChunks--;
    this.limitBytes = Math.max(this.min, Math.floor(this.limitBytes / 2));
    this.minSmall = Math.floor(this.minSmall / 2);
    // Samples from before the overload would grow it straight back: start from the halved window.
    const rtt = Math.max(1, this.minRtt());
    this.congestedAt = this.now();
    this.ceiling = this.limitBytes;
    this.ceilingAt = this.congestedAt;
    this.buckets = [
      { start: this.congestedAt, maxRate: Math.max(0, this.limitBytes - this.biggestChunk) / GAIN / rtt, minRtt: rtt },
    ];
    this.shrinks++;
    this.serve();
  }

  /** The chunk ended without a verdict on the link (aborted, refused as bad input): frees its room. */
  release(t: Ticket): void {
    this.inflightBytes -= t.bytes;
    this.inflightChunks--;
    this.serve();
  }

  /** A job ended: its reservation and waiting chunks go. */
  forget(job: number): void {
    this.reservedBytes.delete(job);
    for (const w of this.waiting.get(job) ?? []) w.fail(new Error('aborted'));
    this.waiting.delete(job);
    this.turn = this.turn.filter((j) => j !== job);
    this.serve();
  }

  private serve(): void {
    // One chunk per job per turn; a job whose chunk does not fit keeps its turn (no starving
    // a large chunk behind small ones), except that an empty window takes any chunk.
    while (this.turn.length) {
      const job = this.turn[0]!;
      const list = this.waiting.get(job);
      if (!list?.length) {
        this.turn.shift();
        this.waiting.delete(job);
        continue;
      }
      const next = list[0]!;
      const fits =
        this.inflightBytes === 0 || this.inflightBytes + next.bytes <= this.limitBytes || this.opening(next.bytes);
      if (!fits && !this.smallFits(next.bytes)) return;
      list.shift();
      this.turn.shift();
      if (list.length) this.turn.push(job);
      else this.waiting.delete(job);
      this.inflightBytes += next.bytes;
      this.inflightChunks++;
      next.grant({ job, bytes: next.bytes, sentAt: this.now(), deliveredAtSend: this.delivered });
    }
  }

  /**
   * Before the first answer, two chunks may go whatever the window's bytes: a chunk larger than
   * the window went alone, and the link stood idle for its round trip before the window learnt
   * anything (8 MiB chunks on the 40 ms link model lost a tenth of the raw stream, issue 21).
   * Not for a window too small to hold two (a fixed one-chunk window stays one chunk).
   */
  private opening(bytes: number): boolean {
    return this.buckets.length === 0 && this.shrinks === 0 && this.inflightChunks < 2 && 2 * bytes <= this.max;
  }

  private sample(now: number, rate: number, rtt: number): void {
    let last = this.buckets[this.buckets.length - 1];
    if (!last || now - last.start >= BUCKET_MS) {
      last = { start: now, maxRate: 0, minRtt: Infinity };
      this.buckets.push(last);
      if (this.buckets.length > BUCKETS) this.buckets.shift();
    }
    last.maxRate = Math.max(last.maxRate, rate);
    last.minRtt = Math.min(last.minRtt, rtt);
  }

  /** Bytes per ms: the best recent delivery rate. */
  private maxRate(): number {
    return this.buckets.reduce((m, b) => Math.max(m, b.maxRate), 0);
  }

  /** Ms: the shortest recent round trip of a chunk. */
  private minRtt(): number {
    const m = this.buckets.reduce((v, b) => Math.min(v, b.minRtt), Infinity);
    return Number.isFinite(m) ? m : 0;
  }
}
