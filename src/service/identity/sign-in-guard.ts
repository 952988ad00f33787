/**
 * The sign-in policy (docs/security.md, "Sign-in"), after OWASP's authentication guidance:
 * failures slow a username down, they never lock it.
 *
 * - Failures of one username from one address (a person's typos) are free up to `pair.free`;
 *   after that each further attempt waits an exponentially growing delay since the last
 *   failure (1 s, 2 s, 4 s, ...) up to a ceiling. An attempt inside the delay answers 429 with
 *   Retry-After and costs no hash.
 * - Failures of one username from anywhere (guessing spread over addresses) slow the username
 *   the same way, but only for addresses that have themselves failed for it recently: the right
 *   password from an address that has not failed is never refused, so nobody can lock the admin
 *   out by guessing.
 * - Unknown usernames cost a hash (so timing does not tell that a name is unknown) only within a
 *   budget per address and a global one; past it no hash is computed, and every failed attempt
 *   from an address past its budget (unknown name or wrong password alike, so nothing tells
 *   them apart) answers the same 401 after `tarpitMs`: a flood from one address gets a slow
 *   trickle of answers and no CPU. The right password is never held back.
 * - Attempts from addresses with no recent failure use the password pool's priority lane.
 * IPv6 addresses count per /64 (one host usually owns a whole /64).
 */
import type { Clock } from '../context';
import { ApiError } from '../http/api-error';
import { addressKey } from '../http/client-address';
import { FailureLog, TokenBuckets } from './failure-counters';
import type { Lane } from './password-pool';

export interface Backoff {
  /** Failures allowed before any delay. */
  free: number;
  baseMs: number;
  ceilingMs: number;
}

export interface SignInPolicy {
  /** How long failures are remembered. */
  windowMs: number;
  pair: Backoff;
  username: Backoff;
  /** Unknown-username checks that get a real hash, per address and in all. */
  unknownPerAddressPerMinute: number;
  unknownGlobalPerMinute: number;
  /** How long a failed answer is held for an address past its unknown-username budget. */
  tarpitMs: number;
}

export const SIGN_IN_POLICY: SignInPolicy = {
  windowMs: 15 * 60 * 1000,
  pair: { free: 5, baseMs: 1000, ceilingMs: 5 * 60 * 1000 },
  username: { free: 20, baseMs: 1000, ceilingMs: 15 * 60 * 1000 },
  unknownPerAddressPerMinute: 10,
  unknownGlobalPerMinute: 120,
  tarpitMs: 1000,
};

/** Delay owed after `n` failures. */
export function backoffMs(n: number, b: Backoff): number {
  if (n < b.free) return 0;
  return Math.min(b.ceilingMs, b.baseMs * 2 ** Math.min(30, n - b.free));
}

export class SignInGuard {
  private readonly pairs: FailureLog;
  private readonly usernames: FailureLog;
  private readonly addresses: FailureLog;
  private readonly unknownPerAddress: TokenBuckets;
  private readonly unknownGlobal: TokenBuckets;

  constructor(
    private readonly clock: Clock,
    private readonly policy: SignInPolicy = SIGN_IN_POLICY,
  ) {
    this.pairs = new FailureLog(clock, policy.windowMs);
    this.usernames = new FailureLog(clock, policy.windowMs);
    this.addresses = new FailureLog(clock, policy.windowMs);
    this.unknownPerAddress = new TokenBuckets(clock, policy.unknownPerAddressPerMinute);
    this.unknownGlobal = new TokenBuckets(clock, policy.unknownGlobalPerMinute);
  }

  /**
   * Before a credential is checked: throws 429 RATE_LIMITED (with Retry-After) while this
   * username is slowed for this address; otherwise answers the pool lane to check it in.
   */
  begin(username: string, ip: string): Lane {
    const u = username.toLowerCase();
    const a = addressKey(ip);
    const pairKey = `${u}\n${a}`;
    let wait = this.owed(pairKey, this.pairs, this.policy.pair);
    // The username's own slowdown applies only where this username has failed.
    if (this.pairs.count(pairKey) > 0) wait = Math.max(wait, this.owed(u, this.usernames, this.policy.username));
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      throw new ApiError(
        'RATE_LIMITED',
        `Too many failed attempts for this account from here: try again in ${seconds} seconds`,
        { retry_after: seconds },
        { 'retry-after': String(seconds) },
      );
    }
    return this.addresses.count(a) === 0 ? 'priority' : 'normal';
  }

  /** True when an unknown username may still cost a real (dummy) hash from this address. */
  mayHashUnknown(ip: string): boolean {
    return this.unknownPerAddress.take(addressKey(ip)) && this.unknownGlobal.take('*');
  }

  /**
   * How long to hold a failed answer to this address (0 unless past its unknown-name budget):
   * `tarpitMs` to twice that, at random. A flood re-sends each attempt as its answer arrives, so
   * a fixed hold kept its attempts in step: all of them answered and re-sent in one burst a
   * second, and the uploads and downloads that fell in a burst waited (docs/benchmarks.md).
   */
  holdFailureMs(ip: string): number {
    if (!this.unknownPerAddress.empty(addressKey(ip)) && !this.unknownGlobal.empty('*')) return 0;
    return this.policy.tarpitMs * (1 + Math.random());
  }

  fail(username: string, ip: string): void {
    const u = username.toLowerCase();
    const a = addressKey(ip);
    this.pairs.add(`${u}\n${a}`);
    this.usernames.add(u);
    this.addresses.add(a);
  }

  /** A success clears this pair's failures (the username's count stays: it was still guessed). */
  succeed(username: string, ip: string): void {
    this.pairs.clear(`${username.toLowerCase()}\n${addressKey(ip)}`);
  }

  private owed(key: string, log: FailureLog, b: Backoff): number {
    const last = log.last(key);
    if (last === null) return 0;
    return last + backoffMs(log.count(key), b) - this.clock.now();
  }
}
