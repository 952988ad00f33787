/**
 * The sign-in counters under a flood of new usernames (issue 24 item 2): each failure with a
 * made-up name is a new key, and keys leave only when their failures leave the 15-minute window.
 * A pass over every key ran on every failure once 10,000 were held, so after five minutes of 32
 * bogus logins a second each failure cost 2 to 10 ms of the event loop per counter (about 40,000
 * passes in this test: minutes). Sweeps now run when the keys have doubled, and still drop
 * expired keys. The API keys' limiter, keyed by address (any number of them in one IPv6 /64),
 * had the same pass. Time is the one fake: a clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/service/context';
import { FailureLimiter, LOGIN_LIMITS } from '../../../src/service/auth/failure-limiter';
import { FailureLog, TokenBuckets } from '../../../src/service/identity/failure-counters';

const WINDOW_MS = 15 * 60 * 1000;

function testClock(): Clock & { at: number } {
  const clock = { at: 1_000_000, now: () => clock.at };
  return clock;
}

describe('the sign-in counters under a flood of new keys', () => {
  it('50,000 new usernames cost a handful of sweeps, not one per failure', () => {
    const clock = testClock();
    const log = new FailureLog(clock, WINDOW_MS);
    for (let i = 0; i < 50_000; i++) {
      clock.at += 16; // 60 a second, all within the window
      log.add(`nobody-${i}\n127.0.0.1`);
    }
    // 10,000, then each time the live keys have doubled: 20,000 and 40,000.
    expect(log.sweeps).toBe(3);
    expect(log.size).toBe(50_000);
    expect(log.count('nobody-49999\n127.0.0.1')).toBe(1);
    expect(log.count('nobody-0\n127.0.0.1')).toBe(1);
  });

  it('a sweep still drops the keys whose failures left the window', () => {
    const clock = testClock();
    const log = new FailureLog(clock, WINDOW_MS);
    for (let i = 0; i < 12_000; i++) log.add(`old-${i}`);
    expect(log.sweeps).toBe(1);
    clock.at += WINDOW_MS + 1;
    // The next sweep comes at twice what the first left (10,001 keys): it drops the old 12,000.
    for (let i = 0; i < 9_000; i++) log.add(`new-${i}`);
    expect(log.sweeps).toBe(2);
    expect(log.size).toBe(9_000);
    expect(log.count('old-0')).toBe(0);
    expect(log.count('new-0')).toBe(1);
  });

  it('token buckets of 30,000 addresses sweep a handful of times and drop idle ones', () => {
    const clock = testClock();
    const buckets = new TokenBuckets(clock, 10);
    for (let i = 0; i < 30_000; i++) {
      clock.at += 1;
      expect(buckets.take(`10.0.${i >> 8}.${i & 255}`)).toBe(true);
    }
    // Past 10,000 keys and past 20,002: none idle yet, all kept.
    expect(buckets.sweeps).toBe(2);
    expect(buckets.size).toBe(30_000);
    clock.at += 60_001;
    for (let i = 0; i < 20_001; i++) expect(buckets.take(`10.9.${i >> 8}.${i & 255}`)).toBe(true);
    // Past 40,006 keys: the 30,000 idle ones go.
    expect(buckets.sweeps).toBe(3);
    expect(buckets.size).toBe(20_001);
  });

  it("the API keys' limiter: 30,000 refusing addresses sweep a handful of times and drop old ones", () => {
    const clock = testClock();
    const limiter = new FailureLimiter(clock, LOGIN_LIMITS);
    // One refused key from each of 30,000 addresses of one IPv6 /64.
    for (let i = 0; i < 30_000; i++) limiter.fail(`2001:db8::${i.toString(16)}`);
    expect(limiter.sweeps).toBe(2);
    expect(limiter.size).toBe(30_000);
    expect(limiter.retryAfter('2001:db8::0')).toBe(0);
    clock.at += LOGIN_LIMITS.windowMs + 1;
    for (let i = 0; i < 15_000; i++) limiter.fail(`2001:db8::1:${i.toString(16)}`);
    // Past 40,006 keys: the 30,000 old ones go.
    expect(limiter.sweeps).toBe(3);
    expect(limiter.size).toBe(15_000);
  });
});
