/**
 * The counters behind the sign-in policy (sign-in-guard.ts): failures per key within a window,
 * and token buckets. In memory on purpose: a failed attempt must never write to disk (a full
 * disk would otherwise stop sign-in, and an attacker would fill it), and a restart forgetting
 * them costs an attacker a restart they cannot cause. Both sweep themselves so that a flood of
 * new keys (addresses, made-up usernames) cannot grow memory without bound.
 *
 * A sweep is a pass over every key, so it runs only when the keys have doubled since the last
 * one left them (amortised O(1) per attempt). It used to run on every attempt once 10,000 keys
 * were held, and keys are only dropped once their failures leave the 15-minute window: a flood
 * of new usernames at 32 a second made each failed sign-in cost 2 to 10 ms of the event loop
 * after five minutes, per log, and every upload and download waited behind it.
 */
import type { Clock } from '../context';

const SWEEP_AT = 10_000;

/** Failure times per key, remembered for `windowMs`. */
export class FailureLog {
  private readonly failures = new Map<string, number[]>();
  private sweepAt = SWEEP_AT;
  /** Passes over every key so far (each costs O(keys)). */
  sweeps = 0;

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
    if (this.failures.size > this.sweepAt) {
      const since = this.clock.now() - this.windowMs;
      for (const k of [...this.failures.keys()]) this.recent(k, since);
      this.sweeps++;
      this.sweepAt = Math.max(SWEEP_AT, 2 * this.failures.size);
    }
  }

  /** Keys held (within the window, or expired and not yet swept). */
  get size(): number {
    return this.failures.size;
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, since = this.clock.now() - this.windowMs): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}

/** `perMinute` tokens per key, refilled continuously, at most `perMinute` saved up. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private sweepAt = SWEEP_AT;
  /** Passes over every key so far (each costs O(keys)). */
  sweeps = 0;

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
    if (this.buckets.size > this.sweepAt) this.sweep(now);
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

  /** Keys held. */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(k);
    this.sweeps++;
    this.sweepAt = Math.max(SWEEP_AT, 2 * this.buckets.size);
  }
}
