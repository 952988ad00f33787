import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/main/core/uploads/backoff';
import { activeWindow, BandwidthLimiter, limitAt } from '../../../src/main/core/uploads/bandwidth';
import { jwtExpiry, refreshTokenFromSetCookie } from '../../../src/main/core/session/refresh-cookie';
import { errorFromResponse } from '../../../src/shared/service-client/service-error';

describe('backoff with jitter', () => {
  it('grows exponentially, stays within [ceiling/2, ceiling] and is capped', () => {
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(4, () => 0.5)).toBe(6000);
    expect(backoffDelay(30, () => 1)).toBe(300_000);
  });
});

describe('bandwidth schedule', () => {
  const settings = {
    concurrency: 2,
    limit_mbps: null,
    schedule: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', limit_mbps: 20 }],
  };
  it('applies the weekday window in local time only inside it', () => {
    expect(limitAt(settings, new Date(2026, 10, 23, 9, 0))).toEqual({ bytesPerSecond: 2_500_000, scheduled: true }); // Monday
    expect(limitAt(settings, new Date(2026, 10, 23, 18, 0)).bytesPerSecond).toBeNull();
    expect(limitAt(settings, new Date(2026, 10, 22, 9, 0)).bytesPerSecond).toBeNull(); // Sunday
  });
  it('handles windows across midnight', () => {
    const night = [{ days: [5], start: '22:00', end: '06:00', limit_mbps: 1 }];
    expect(activeWindow(night, new Date(2026, 10, 27, 23, 0))).not.toBeNull(); // Friday night
    expect(activeWindow(night, new Date(2026, 10, 28, 5, 59))).not.toBeNull(); // Saturday morning
    expect(activeWindow(night, new Date(2026, 10, 28, 6, 0))).toBeNull();
  });
  it('paces bytes to the rate with a fake clock', async () => {
    let now = 0;
    const limiter = new BandwidthLimiter(
      () => 1000,
      () => now,
      async (ms) => void (now += ms),
    );
    for (let i = 0; i < 10; i++) await limiter.take(250);
    // 2,500 bytes at 1,000 B/s with a 250-byte burst: at least 2.25 s of fake time.
    expect(now).toBeGreaterThanOrEqual(2250);
    expect(now).toBeLessThan(2600);
  });
});

describe('refresh cookie and errors', () => {
  it('captures the refresh token from Set-Cookie and reads JWT expiry', () => {
    expect(refreshTokenFromSetCookie(['a=b', 'service_refresh_token=abc.def; Path=/api; HttpOnly'])).toBe('abc.def');
    expect(refreshTokenFromSetCookie('service_refresh_token=; Max-Age=0')).toBeNull();
    const jwt = `x.${Buffer.from(JSON.stringify({ exp: 1234 })).toString('base64url')}.y`;
    expect(jwtExpiry(jwt)).toBe(1234);
    expect(jwtExpiry('garbage')).toBeNull();
  });
  it('turns service error bodies into data, retryable only for 5xx and 429', () => {
    expect(errorFromResponse(409, { error: 'dup', code: 'DUPLICATE_FILE', status: 409, data_id: 7 }).data).toEqual({
      code: 'DUPLICATE_FILE',
      message: 'dup',
      retryable: false,
      details: { data_id: 7 },
    });
    expect(errorFromResponse(503, 'busy').retryable).toBe(true);
    expect(errorFromResponse(413, { error: 'big', code: 'PAYLOAD_TOO_LARGE', status: 413 }).retryable).toBe(false);
  });
});
