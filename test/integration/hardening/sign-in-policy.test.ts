/**
 * Issue 24 item 2 (and issue 11 rows 8, 14, kept): failed sign-ins slow a username down, they
 * never lock it, and unknown usernames cannot buy CPU.
 * - "Anyone can lock any named account": 10 wrong passwords for the admin from each of 5
 *   addresses locked the admin out for 15 minutes, even with the right password from anywhere.
 * - Unknown usernames each cost a scrypt on libuv's pool and were never limited.
 * Requests come from distinct loopback addresses (127.0.0.x: Linux routes all of 127/8 to lo), so
 * the service sees real, different client addresses. Time is the one thing faked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY } from '../../../src/service/identity/sign-in-guard';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, setupAdmin, type Session } from '../identity/helpers';
import { from } from './from-address';

describe('sign-in slows failures down and never locks the right password out (issue 24 item 2)', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  let admin: Session;
  beforeAll(async () => {
    service = await startTestService({ clock });
    admin = await setupAdmin(service, 'admin');
    for (const name of ['alice', 'bob', 'carol']) await addUser(service, admin, name);
  });
  afterAll(async () => {
    await service.stop();
  });

  const login = (address: string, username: string, password: string) =>
    from(service, address, 'POST', '/api/login', { username, password });

  it('the admin signs in from a clean address while five others hammer wrong passwords', async () => {
    const hammer = async (address: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await login(address, 'admin', `guess-${address}-${i}`)).status);
      return statuses;
    };
    const all = await Promise.all(['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14', '127.0.0.15'].map(hammer));
    for (const statuses of all) {
      // A few free failures per address, then the address is slowed (429), never let through.
      expect(statuses[0]).toBe(401);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_POLICY.pair.free);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      expect(statuses[9]).toBe(429);
    }
    // The right password from an address that has not failed: at once, no wait.
    expect((await login('127.0.0.20', 'admin', 'correct horse')).status).toBe(200);
    // Even a hammering address gets in with the right password once its delay has passed.
    const slowed = await login('127.0.0.11', 'admin', 'correct horse');
    expect(slowed).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', status: 429 } });
    clock.t += Number(slowed.retryAfter) * 1000;
    expect((await login('127.0.0.11', 'admin', 'correct horse')).status).toBe(200);
  });

  it("one user's typos slow only that user on that address, with a growing delay and a ceiling", async () => {
    clock.t += SIGN_IN_POLICY.windowMs + 1000;
    for (let i = 0; i < 5; i++) expect((await login('127.0.0.1', 'bob', `typo-${i}`)).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const limited = await login('127.0.0.1', 'bob', `typo-more-${i}`);
      expect(limited.status).toBe(429);
      waits.push(Number(limited.retryAfter));
      clock.t += Number(limited.retryAfter) * 1000;
      expect((await login('127.0.0.1', 'bob', `typo-late-${i}`)).status).toBe(401);
    }
    // 1, 2, 4, ... seconds, then the ceiling (the whole series stays inside the window).
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8]);
    expect(Math.max(...waits)).toBe(SIGN_IN_POLICY.pair.ceilingMs / 1000);
    // Colleagues behind the same address sign in as usual; bob from his other machine too.
    expect((await login('127.0.0.1', 'alice', 'password-alice')).status).toBe(200);
    expect((await login('127.0.0.2', 'bob', 'password-bob')).status).toBe(200);
  });

  it('guesses at one username over many addresses slow the addresses that failed, not clean ones', async () => {
    clock.t += SIGN_IN_POLICY.windowMs + 1000;
    for (let a = 30; a < 30 + SIGN_IN_POLICY.username.free; a++) {
      expect((await login(`127.0.0.${a}`, 'carol', `guess-${a}`)).status).toBe(401);
    }
    // Past the username's free failures, an address that failed once is slowed at once...
    expect((await login('127.0.0.30', 'carol', 'guess-again')).status).toBe(429);
    // ...while the right password from a clean address goes through, and other accounts are untouched.
    expect((await login('127.0.0.99', 'carol', 'password-carol')).status).toBe(200);
    expect((await login('127.0.0.31', 'alice', 'password-alice')).status).toBe(200);
  });

  it('unknown usernames: the same 401, but only a budget of them costs a hash', async () => {
    clock.t += SIGN_IN_POLICY.windowMs + 1000;
    const before = service.ctx.parts.passwords.completed;
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_POLICY.unknownPerAddressPerMinute; i++)
      statuses.push((await login('127.0.0.50', `nobody-${i}`, 'x')).status);
    // Past the budget: no hash, and every failed answer to this address is held (tarpit),
    // a wrong password for a real name as much as a made-up name, so nothing tells them apart.
    const t0 = performance.now();
    const held = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => login('127.0.0.50', `nobody-late-${i}`, 'x')),
      login('127.0.0.50', 'alice', 'wrong'),
    ]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(SIGN_IN_POLICY.tarpitMs - 5);
    statuses.push(...held.map((h) => h.status));
    // Never a 429 that would tell an unknown name from a known one.
    expect(new Set(statuses)).toEqual(new Set([401]));
    // The budget's hashes, and the one for the real name.
    expect(service.ctx.parts.passwords.completed - before).toBe(SIGN_IN_POLICY.unknownPerAddressPerMinute + 1);
    // The right password from that address still signs in (and is never held: auth.routes.ts).
    expect((await login('127.0.0.50', 'bob', 'password-bob')).status).toBe(200);
    // Another address has its own budget.
    expect((await login('127.0.0.51', 'nobody-else', 'x')).status).toBe(401);
    expect(service.ctx.parts.passwords.completed - before).toBe(SIGN_IN_POLICY.unknownPerAddressPerMinute + 3);
  });

  it('wrong current passwords on PUT /api/me/password are slowed like logins; password unchanged', async () => {
    clock.t += SIGN_IN_POLICY.windowMs + 1000;
    const alice = await login('127.0.0.1', 'alice', 'password-alice');
    const token = alice.body.token as string;
    const change = (current: string) =>
      from(
        service,
        '127.0.0.1',
        'PUT',
        '/api/me/password',
        { current_password: current, new_password: 'a brand new password' },
        token,
      );
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) answers.push((await change(`wrong-${i}`)).status);
    expect(answers).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const right = await change('password-alice');
    expect(right).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', status: 429 } });
    clock.t += Number(right.retryAfter) * 1000;
    expect((await login('127.0.0.1', 'alice', 'password-alice')).status).toBe(200);
    expect((await change('password-alice')).status).toBe(200);
    expect((await login('127.0.0.1', 'alice', 'a brand new password')).status).toBe(200);
    expect((await service.api('/api/health')).status).toBe(200);
  });
});
