/**
 * Refused API keys per address: a sliding window of failures per key. The caller keys it with
 * http/client-address.ts's addressKey, as sign-in does (an IPv6 client by its /64); passwords
 * have their own slow-down policy, identity/sign-in-guard.ts. Kept in memory: a restart forgets, which costs an
 * attacker a service restart they cannot cause, and keeps the checking path free of writes.
 */
import type { Clock } from '../context';

export interface RateLimiterOptions {
  maxFailures: number;
  windowMs: number;
}

export const LOGIN_LIMITS: RateLimiterOptions = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

const SWEEP_AT = 10_000;

export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private sweepAt = SWEEP_AT;
  /** Passes over every key so far (each costs O(keys)). */
  sweeps = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: RateLimiterOptions = LOGIN_LIMITS,
  ) {}

  /** Seconds until the key may try again, or 0 when it is not limited. */
  retryAfter(key: string): number {
    const now = this.clock.now();
    const recent = this.prune(key, now);
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000));
  }

  /** Records one failure for the key. */
  fail(key: string): void {
    const now = this.clock.now();
    const recent = this.prune(key, now);
    recent.push(now);
    this.failures.set(key, recent);
    // Unbounded keys (many addresses) must not grow memory forever: sweep now and then, when
    // the keys have doubled since the last sweep (amortised O(1); a pass on every failure past
    // 10,000 keys made each one cost milliseconds, identity/failure-counters.ts).
    if (this.failures.size > this.sweepAt) this.sweep(now);
  }

  /** Forgets a key's failures (after a successful login). */
  reset(key: string): void {
    this.failures.delete(key);
  }

  private prune(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > now - this.options.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Keys held. */
  get size(): number {
    return this.failures.size;
  }

  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) this.prune(key, now);
    this.sweeps++;
    this.sweepAt = Math.max(SWEEP_AT, 2 * this.failures.size);
  }
}
