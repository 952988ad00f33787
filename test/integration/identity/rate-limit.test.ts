import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin } from './helpers';

describe('identity: login brute-force protection', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ clock });
    await setupAdmin(service);
  });
  afterAll(async () => {
    await service.stop();
  });

  const attempt = (username: string, password: string) =>
    call(service, 'POST', '/api/login', { body: { username, password } });

  it('answers 429 RATE_LIMITED with Retry-After after 5 failures from this address, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('admin', `wrong-${i}`)).status).toBe(401);
    const limited = await attempt('admin', 'correct horse');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    clock.t += retry * 1000;
    expect((await attempt('admin', 'correct horse')).status).toBe(200);
  });

  it('treats unknown usernames exactly like known ones (no existence oracle)', async () => {
    clock.t += 16 * 60 * 1000;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push((await attempt('admin', 'bad')).status);
      unknown.push((await attempt('nobody-here', 'bad')).status);
    }
    // The (username, address) slowdown starts after the fifth failure of each name alike.
    expect(known.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(unknown.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const k = await attempt('admin', 'bad');
    const u = await attempt('nobody-here', 'bad');
    expect(k.status).toBe(429);
    expect(u.status).toBe(429);
    expect(Object.keys(k.body).sort()).toEqual(Object.keys(u.body).sort());
  });
});
