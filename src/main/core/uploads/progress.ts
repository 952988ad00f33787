/**
 * Live progress of running jobs: bytes, speed (a moving average over the last seconds) and
 * ETA, and a throttle so that the renderer gets a few events per second, not one per slice.
 */
export interface Live {
  bytesSent: number;
  speed: number;
  eta: number | null;
}

interface Sample {
  at: number;
  bytes: number;
}

const WINDOW_MS = 10_000;
const IDLE_GAP_MS = 2_000;

export class ProgressTracker {
  private readonly live = new Map<number, { sent: number; total: number; samples: Sample[]; since: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Acknowledged network bytes of all jobs, for the queue's speed (files of one chunk included). */
  private all: Sample[] = [];
  /** When the queue last started moving bytes after being idle. */
  private busySince: number | null = null;

  /** When the last job ended with none left, or null while jobs run. */
  private idleSince: number | null = null;

  begin(jobId: number, sent: number, total: number): void {
    const now = this.now();
    // One file ending and the next starting is the same stretch of work; a real pause is not.
    if (this.busySince === null || (this.idleSince !== null && now - this.idleSince > IDLE_GAP_MS)) {
      this.busySince = now;
      this.all = [];
    }
    this.idleSince = null;
    this.live.set(jobId, { sent, total, samples: [], since: now });
  }

  end(jobId: number): void {
    this.live.delete(jobId);
    if (this.live.size === 0) this.idleSince = this.now();
  }

  /**
   * The queue's speed: bytes the service acknowledged over the last seconds, across jobs. A
   * queue of small files, each acknowledged in one piece, still has a true speed this way.
   */
  overallSpeed(): number {
    if (this.busySince === null || this.live.size === 0) return 0;
    const now = this.now();
    this.all = this.all.filter((x) => now - x.at <= WINDOW_MS);
    const bytes = this.all.reduce((sum, x) => sum + x.bytes, 0);
    const span = now - Math.max(this.busySince, now - WINDOW_MS);
    return bytes > 0 && span > 0 ? (bytes / span) * 1000 : 0;
  }

  /** Counts bytes; `network` false for bytes found on the service (not part of the speed). */
  add(jobId: number, n: number, network = true): void {
    const entry = this.live.get(jobId);
    if (!entry) return;
    entry.sent += n;
    if (network && n > 0) {
      entry.samples.push({ at: this.now(), bytes: n });
      this.all.push({ at: this.now(), bytes: n });
    }
  }

  get(jobId: number): Live | undefined {
    const entry = this.live.get(jobId);
    if (!entry) return undefined;
    const now = this.now();
    entry.samples = entry.samples.filter((s) => now - s.at <= WINDOW_MS);
    const bytes = entry.samples.reduce((sum, s) => sum + s.bytes, 0);
    // Bytes count when acknowledged, so the window reaches back to when sending began (not to
    // the first acknowledgement): one 8 MB chunk acknowledged after 4 s is 2 MB/s, not 32.
    const span = now - Math.max(entry.since, now - WINDOW_MS);
    const speed = bytes > 0 && span > 0 ? (bytes / span) * 1000 : 0;
    const left = Math.max(0, entry.total - entry.sent);
    return { bytesSent: Math.min(entry.sent, entry.total), speed, eta: speed > 0 ? left / speed : null };
  }

  ids(): number[] {
    return [...this.live.keys()];
  }
}

/** Calls `fn` at most once per interval, trailing call included. */
export function throttle(
  fn: () => void,
  intervalMs: number,
  now: () => number = Date.now,
): { call(): void; flush(): void; cancel(): void } {
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  const run = () => {
    timer = null;
    last = now();
    fn();
  };
  return {
    call() {
      if (timer) return;
      const wait = intervalMs - (now() - last);
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    flush() {
      if (timer) clearTimeout(timer);
      run();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
