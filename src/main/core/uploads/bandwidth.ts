/**
 * The upload bandwidth limit: a token bucket shared by all running jobs, whose rate is the
 * always-on limit or the schedule window that applies now (local time), or unlimited.
 */
import type { BandwidthWindow, UploadSettings } from '../../../shared/desktop-api/contract';

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The schedule window in force at a moment, if any (windows may span midnight). */
export function activeWindow(schedule: readonly BandwidthWindow[], at: Date): BandwidthWindow | null {
  const day = at.getDay();
  const minute = at.getHours() * 60 + at.getMinutes();
  for (const w of schedule) {
    const start = minutes(w.start);
    const end = minutes(w.end);
    if (start <= end) {
      if (w.days.includes(day) && minute >= start && minute < end) return w;
    } else if ((w.days.includes(day) && minute >= start) || (w.days.includes((day + 6) % 7) && minute < end)) {
      return w;
    }
  }
  return null;
}

/** Bytes per second allowed at a moment; null for unlimited. */
export function limitAt(settings: UploadSettings, at: Date): { bytesPerSecond: number | null; scheduled: boolean } {
  const window = activeWindow(settings.schedule, at);
  const mbps = window ? window.limit_mbps : settings.limit_mbps;
  return { bytesPerSecond: mbps === null ? null : (mbps * 1_000_000) / 8, scheduled: window !== null };
}

export class BandwidthLimiter {
  private tokens = 0;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly rate: () => number | null,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    this.last = now();
  }

  /** True when a limit applies now (else the body is not paced at all). */
  limited(): boolean {
    return this.rate() !== null;
  }

  /** Waits until `n` bytes may be sent; callers are served in order. */
  take(n: number): Promise<void> {
    const run = this.queue.then(() => this.wait(n));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async wait(n: number): Promise<void> {
    for (;;) {
      const rate = this.rate();
      const now = this.now();
      if (rate === null) {
        this.last = now;
        this.tokens = 0;
        return;
      }
      // At most a quarter second of burst, so a limit holds over short windows too.
      this.tokens = Math.min(rate / 4, this.tokens + ((now - this.last) / 1000) * rate);
      this.last = now;
      if (this.tokens >= n || (this.tokens >= rate / 4 && n > rate / 4)) {
        this.tokens -= n;
        return;
      }
      await this.sleep(Math.max(5, ((n - this.tokens) / rate) * 1000));
    }
  }
}
