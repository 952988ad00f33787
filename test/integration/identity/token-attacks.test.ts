import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, setupAdmin, type Session } from './helpers';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('identity: token attacks', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  let other: TestService;
  let admin: Session;
  beforeAll(async () => {
    service = await startTestService({ clock });
    other = await startTestService({ clock });
    admin = await setupAdmin(service);
  });
  afterAll(async () => {
    await service.stop();
    await other.stop();
  });

  const meWith = (token: string) => call(service, 'GET', '/api/me', { token });
  const refreshWith = (cookie: string) => call(service, 'GET', '/api/token', { cookie });
  const refreshToken = () => admin.cookie.slice('service_refresh_token='.length);

  it('accepts the genuine tokens (the control case)', async () => {
    expect((await meWith(admin.token)).status).toBe(200);
    expect((await refreshWith(admin.cookie)).status).toBe(200);
  });

  it('refuses an expired access token, and refreshes after it', async () => {
    const saved = clock.t;
    clock.t += 31 * 60 * 1000;
    try {
      const res = await meWith(admin.token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
      expect(res.body.error).toMatch(/expired/);
      const fresh = await refreshWith(admin.cookie);
      expect((await meWith(fresh.body.token as string)).status).toBe(200);
    } finally {
      clock.t = saved;
    }
  });

  it('checks a token seen before again at every use: a disabled account and the clock at once (issue 21)', async () => {
    // The service keeps tokens whose signature verified, so that a busy client's requests are
    // not verified again: what may change since (the account, the time) must still decide.
    await call(service, 'POST', '/api/users', {
      token: admin.token,
      body: { username: 'carol', password: 'password-carol', email: 'carol@lab.test', name: 'Carol' },
    });
    const carol = await call(service, 'POST', '/api/login', {
      body: { username: 'carol', password: 'password-carol' },
    });
    const token = carol.body.token as string;
    const id = (carol.body.user as { id: number }).id;
    for (let i = 0; i < 3; i++) expect((await meWith(token)).status).toBe(200);
    await call(service, 'PUT', `/api/users/${id}`, { token: admin.token, body: { disabled: true } });
    expect((await meWith(token)).body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    await call(service, 'PUT', `/api/users/${id}`, { token: admin.token, body: { disabled: false } });
    expect((await meWith(token)).status).toBe(200);
    const saved = clock.t;
    clock.t += 30 * 60 * 1000;
    try {
      const res = await meWith(token);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatch(/expired/);
    } finally {
      clock.t = saved;
    }
    // An access token is refused as a refresh token, verified before or not.
    expect((await refreshWith(`service_refresh_token=${token}`)).body.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('refuses an expired refresh token', async () => {
    const saved = clock.t;
    clock.t += 366 * 24 * 3600 * 1000;
    try {
      expect((await refreshWith(admin.cookie)).body.code).toBe('INVALID_REFRESH_TOKEN');
    } finally {
      clock.t = saved;
    }
  });

  it('never accepts a refresh token as access, nor an access token as refresh', async () => {
    const asAccess = await meWith(refreshToken());
    expect(asAccess.status).toBe(401);
    expect(asAccess.body.code).toBe('UNAUTHENTICATED');
    const asRefresh = await refreshWith(`service_refresh_token=${admin.token}`);
    expect(asRefresh.status).toBe(401);
    expect(asRefresh.body.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('refuses alg: none', async () => {
    const now = Math.floor(clock.t / 1000);
    const claims = { sub: String(admin.id), typ: 'access', iat: now, exp: now + 600, jti: 'x' };
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'None' }, { alg: 'HS256' }]) {
      const res = await meWith(`${b64(header)}.${b64(claims)}.`);
      expect(res.status, JSON.stringify(header)).toBe(401);
    }
    const refresh = await refreshWith(
      `service_refresh_token=${b64({ alg: 'none' })}.${b64({ ...claims, typ: 'refresh' })}.`,
    );
    expect(refresh.body.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it("refuses a token signed with another installation's secret, or with a guessed one", async () => {
    await call(other, 'POST', '/api/setup', {
      body: { username: 'admin', password: 'correct horse', email: 'admin@other.test', name: 'Other' },
    });
    const foreign = await call(other, 'POST', '/api/login', { body: { username: 'admin', password: 'correct horse' } });
    expect(foreign.status).toBe(200);
    // Same username, same user id 1, valid on its own installation: still refused here.
    expect((await meWith(foreign.body.token as string)).status).toBe(401);
    const foreignCookie = foreign.headers.get('set-cookie')!.split(';')[0]!;
    expect((await refreshWith(foreignCookie)).body.code).toBe('INVALID_REFRESH_TOKEN');
    const now = Math.floor(clock.t / 1000);
    const forged = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(admin.id))
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setJti('forged')
      .sign(randomBytes(64));
    expect((await meWith(forged)).status).toBe(401);
  });

  it('refuses a revoked refresh token', async () => {
    const res = await call(service, 'POST', '/api/login', { body: { username: 'admin', password: 'correct horse' } });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    expect((await refreshWith(cookie)).status).toBe(200);
    await call(service, 'POST', '/api/logout', { cookie });
    expect((await refreshWith(cookie)).body.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('refuses a tampered cookie: changed claims, changed signature, garbage', async () => {
    const [h, p, sig] = refreshToken().split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const otherUser = `${h}.${b64({ ...claims, sub: '2' })}.${sig}`;
    const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const value of [otherUser, flipped, 'garbage', '', `${h}.${p}`, '%E0%A4%A']) {
      const res = await refreshWith(`service_refresh_token=${value}`);
      expect(res.status, value).toBe(401);
      expect(res.body.code).toBe('INVALID_REFRESH_TOKEN');
    }
  });

  it('refuses malformed Authorization headers with UNAUTHENTICATED', async () => {
    for (const header of [
      'Basic YWRtaW46eA==',
      'Bearer',
      'Bearer a.b.c',
      `Token ${admin.token}`,
      'Bearer ' + 'x'.repeat(5000),
    ]) {
      const res = await call(service, 'GET', '/api/me', { headers: { authorization: header } });
      expect(res.status, header.slice(0, 20)).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    }
  });
});
