/**
 * One rule for every check of a credential (login, the current password of a password change):
 * failures are counted per (username, address) and per username, never per address alone. One
 * user's typos then lock out only that user on that machine, and a workstation or a lab behind
 * one NAT address is never locked out as a whole, while guessing one account's password stays
 * bounded however many addresses the guesses come from.
 */
import type { Clock } from '../context';
import { ApiError } from '../http/api-error';
import { FailureLimiter, type RateLimiterOptions } from './rate-limiter';

/** Failures of one username from one address: a person's typos. */
export const PAIR_LIMITS: RateLimiterOptions = { maxFailures: 10, windowMs: 15 * 60 * 1000 };
/** Failures of one username from anywhere: guessing spread over addresses. */
export const USERNAME_LIMITS: RateLimiterOptions = { maxFailures: 50, windowMs: 15 * 60 * 1000 };

export class CredentialLimits {
  private readonly pairs: FailureLimiter;
  private readonly usernames: FailureLimiter;

  constructor(clock: Clock, pair = PAIR_LIMITS, username = USERNAME_LIMITS) {
    this.pairs = new FailureLimiter(clock, pair);
    this.usernames = new FailureLimiter(clock, username);
  }

  /** Throws 429 RATE_LIMITED (with Retry-After) when this username may not be tried from here now. */
  check(username: string, address: string): void {
    const u = username.toLowerCase();
    const wait = Math.max(this.pairs.retryAfter(`${u}\n${address}`), this.usernames.retryAfter(u));
    if (wait > 0) {
      throw new ApiError(
        'RATE_LIMITED',
        `Too many failed attempts for this account: try again in ${wait} seconds`,
        { retry_after: wait },
        { 'retry-after': String(wait) },
      );
    }
  }

  /** Counts one failed check. */
  fail(username: string, address: string): void {
    const u = username.toLowerCase();
    this.pairs.fail(`${u}\n${address}`);
    this.usernames.fail(u);
  }

  /** A success from this address clears that pair's typos (the username's count stays). */
  succeed(username: string, address: string): void {
    this.pairs.reset(`${username.toLowerCase()}\n${address}`);
  }
}
