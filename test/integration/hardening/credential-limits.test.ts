/**
 * Issue 11 rows 8 and 14, part 5: credential checks are limited per (username, address) and per
 * username, never per address alone.
 * - Row 14: 10 failed logins from one address locked out every account on that address (a
 *   workstation, a lab behind NAT).
 * - Row 8: 12 wrong `current_password` on PUT /api/me/password were never limited, so a stolen
 *   access token was an unlimited password oracle.
 * Requests come from distinct loopback addresses (127.0.0.x: Linux routes all of 127/8 to lo), so
 * the service sees real, different client addresses. Time is the one thing faked.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, setupAdmin, type Session } from '../identity/helpers';

/** A JSON request from a chosen local address. */
function from(
  service: TestService,
  address: string,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | undefined }> {
  const url = new URL(service.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        localAddress: address,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let got = '';
        res.on('data', (d: Buffer) => (got += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(got) as Record<string, unknown>,
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('credential checks limited per (username, address) and per username (issue 11 rows 8, 14)', () => {
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

  it("10 failed logins of one user lock out only that user on that address, never a colleague's", async () => {
    for (let i = 0; i < 10; i++) expect((await login('127.0.0.1', 'bob', `typo-${i}`)).status).toBe(401);
    const bobHere = await login('127.0.0.1', 'bob', 'password-bob');
    expect(bobHere).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', status: 429 } });
    expect(Number(bobHere.retryAfter)).toBeGreaterThan(0);
    // Colleagues behind the same address sign in as usual.
    expect((await login('127.0.0.1', 'alice', 'password-alice')).status).toBe(200);
    expect((await login('127.0.0.1', 'admin', 'correct horse')).status).toBe(200);
    // Bob himself, from his other machine, too.
    expect((await login('127.0.0.2', 'bob', 'password-bob')).status).toBe(200);
    clock.t += 15 * 60 * 1000 + 1000;
    expect((await login('127.0.0.1', 'bob', 'password-bob')).status).toBe(200);
  });

  it('guesses at one username spread over many addresses are limited per username', async () => {
    clock.t += 16 * 60 * 1000;
    let failures = 0;
    for (let a = 10; failures < 50; a++) {
      for (let i = 0; i < 9 && failures < 50; i++, failures++) {
        expect((await login(`127.0.0.${a}`, 'carol', `guess-${a}-${i}`)).status).toBe(401);
      }
    }
    const fresh = await login('127.0.0.99', 'carol', 'password-carol');
    expect(fresh).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    // Other accounts on those addresses are untouched.
    expect((await login('127.0.0.10', 'alice', 'password-alice')).status).toBe(200);
    clock.t += 15 * 60 * 1000 + 1000;
    expect((await login('127.0.0.99', 'carol', 'password-carol')).status).toBe(200);
  });

  it('12 wrong current passwords on PUT /api/me/password: limited like logins, password unchanged', async () => {
    clock.t += 16 * 60 * 1000;
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
    for (let i = 0; i < 12; i++) answers.push((await change(`wrong-${i}`)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers.slice(10)).toEqual([429, 429]);
    // While limited even the right current password is refused, and login from here too.
    const right = await change('password-alice');
    expect(right).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', status: 429 } });
    expect((await login('127.0.0.1', 'alice', 'password-alice')).status).toBe(429);
    clock.t += 15 * 60 * 1000 + 1000;
    // Nothing changed: the old password still signs in; then the change goes through.
    expect((await login('127.0.0.1', 'alice', 'password-alice')).status).toBe(200);
    expect((await change('password-alice')).status).toBe(200);
    expect((await login('127.0.0.1', 'alice', 'a brand new password')).status).toBe(200);
    expect((await service.api('/api/health')).status).toBe(200);
  });
});
