/**
 * The counters behind the sign-in policy (sign-in-guard.ts): failures per key within a window,
 * and token buckets. In memory on purpose: a failed attempt must never write to disk (a full
 * disk would otherwise stop sign-in, and an attacker would fill it), and a restart forgetting
 * them costs an attacker a restart they cannot cause. Both sweep themselves so that a flood of
 * new keys (addresses, made-up usernames) cannot grow memory without bound.
 */
import type { Clock } from '../context';

const SWEEP_AT = 10_000;

/** Failure times per key, remembered for `windowMs`. */
export class FailureLog {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** Failures of the key within the window. */
  count(key: string): number {
    return this.recent(key).length;
  }

  /** Time of the key's latest failure, or null. */
  last(key: string): number | null {
    const r = this.recent(key);
    return r.length ? r[r.length - 1]! : null;
  }

  add(key: string): void {
    const r = this.recent(key);
    r.push(this.clock.now());
    // A key past a few hundred failures is slowed to the ceiling anyway: keep the list short.
    if (r.length > 256) r.splice(0, r.length - 256);
    this.failures.set(key, r);
    if (this.failures.size > SWEEP_AT) for (const k of [...this.failures.keys()]) this.recent(k);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.clock.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}

/** `perMinute` tokens per key, refilled continuously, at most `perMinute` saved up. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Takes one token; false when the key has none left. */
  take(key: string): boolean {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + ((now - b.at) / 60_000) * this.perMinute);
    b.at = now;
    if (this.buckets.size > SWEEP_AT) this.sweep(now);
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }

  /** True when the key has no whole token left (without taking one). */
  empty(key: string): boolean {
    const b = this.buckets.get(key);
    if (!b) return false;
    return b.tokens + ((this.clock.now() - b.at) / 60_000) * this.perMinute < 1;
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(k);
  }
}
