/**
 * The tarpit's hold is 1 to 2 s at random (issue 24 item 2): a fixed hold kept a flood's
 * attempts in step, all answered and re-sent in one burst a second (docs/benchmarks.md). Time
 * is the one fake: a clock that stands still.
 */
import { describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY, SignInGuard } from '../../../src/service/identity/sign-in-guard';

describe('the tarpit', () => {
  it('holds nothing within the budget, then 1 to 2 tarpits at random', () => {
    const guard = new SignInGuard({ now: () => 1_000_000 });
    const ip = '192.0.2.7';
    expect(guard.holdFailureMs(ip)).toBe(0);
    for (let i = 0; i < SIGN_IN_POLICY.unknownPerAddressPerMinute; i++) expect(guard.mayHashUnknown(ip)).toBe(true);
    expect(guard.mayHashUnknown(ip)).toBe(false);
    const holds = Array.from({ length: 200 }, () => guard.holdFailureMs(ip));
    for (const h of holds) {
      expect(h).toBeGreaterThanOrEqual(SIGN_IN_POLICY.tarpitMs);
      expect(h).toBeLessThan(2 * SIGN_IN_POLICY.tarpitMs);
    }
    // Spread over the range, not one value: 200 draws all in one tenth of it would be a fixed hold.
    expect(Math.max(...holds) - Math.min(...holds)).toBeGreaterThan(SIGN_IN_POLICY.tarpitMs / 10);
    // Another address is not held.
    expect(guard.holdFailureMs('192.0.2.8')).toBe(0);
  });
});
