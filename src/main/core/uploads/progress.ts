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

export class ProgressTracker {
  private readonly live = new Map<number, { sent: number; total: number; samples: Sample[]; since: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  begin(jobId: number, sent: number, total: number): void {
    this.live.set(jobId, { sent, total, samples: [], since: this.now() });
  }

  end(jobId: number): void {
    this.live.delete(jobId);
  }

  /** Counts bytes; `network` false for bytes found on the service (not part of the speed). */
  add(jobId: number, n: number, network = true): void {
    const entry = this.live.get(jobId);
    if (!entry) return;
    entry.sent += n;
    if (network && n > 0) entry.samples.push({ at: this.now(), bytes: n });
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
