import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretPath } from '../../../src/service/auth/tokens';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, login, setupAdmin, type Session } from './helpers';

describe('identity: setup, login, tokens, me, logout, password change', () => {
  let service: TestService;
  let admin: Session;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers 401 on /api/me before anyone logs in, and keeps the signing secret mode 0600', async () => {
    const me = await call(service, 'GET', '/api/me');
    expect(me.status).toBe(401);
    expect(me.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(statSync(secretPath(service.dataDir)).mode & 0o777).toBe(0o600);
  });

  it('creates the first account with /api/setup, then answers 409', async () => {
    admin = await setupAdmin(service);
    const again = await call(service, 'POST', '/api/setup', {
      body: { username: 'second', password: 'password123', email: 'second@lab.test', name: 'Second' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', status: 409 });
  });

  it('logs in with the refresh cookie attributes of the spec and an access token', async () => {
    const res = await call(service, 'POST', '/api/login', { body: { username: 'admin', password: 'correct horse' } });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({ username: 'admin', is_admin: true, can_run_pipelines: true });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^service_refresh_token=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api');
    expect(cookie).toContain('Max-Age=31536000');
    expect(cookie).not.toContain('Secure');
    const [, payload] = (res.body.token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ typ: 'access', sub: String(admin.id) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(30 * 60);
    expect(typeof claims.jti).toBe('string');
  });

  it('answers the same 401 for a wrong password and an unknown username', async () => {
    const wrong = await call(service, 'POST', '/api/login', { body: { username: 'admin', password: 'nope-nope' } });
    const unknown = await call(service, 'POST', '/api/login', { body: { username: 'ghost', password: 'nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('refreshes with the cookie and answers /api/me with groups and invitations', async () => {
    const token = await call(service, 'GET', '/api/token', { cookie: admin.cookie });
    expect(token.status).toBe(200);
    const me = await call(service, 'GET', '/api/me', { token: token.body.token as string });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: admin.id,
      username: 'admin',
      email: 'admin@lab.test',
      name: 'Admin',
      is_admin: true,
      can_run_pipelines: true,
      groups: [],
      invitations: [],
    });
  });

  it('lets admins create, list, update and disable users; others are refused', async () => {
    const bob = await addUser(service, admin, 'bob');
    const denied = await call(service, 'GET', '/api/users/', { token: bob.token });
    expect(denied.status).toBe(403);
    const list = await call(service, 'GET', '/api/users/?per_page=1&page=2', { token: admin.token });
    expect(list.body).toMatchObject({ count: 2, page: 2, per_page: 1 });
    expect(list.body.items![0]).toMatchObject({ username: 'bob', can_run_pipelines: false, is_admin: false });
    const dup = await call(service, 'POST', '/api/users/', {
      token: admin.token,
      body: { username: 'BOB', password: 'password123', email: 'other@lab.test', name: 'B' },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.fields).toMatchObject({ username: 'already taken' });
    const upd = await call(service, 'PUT', `/api/users/${bob.id}`, {
      token: admin.token,
      body: { can_run_pipelines: true },
    });
    expect(upd.body).toMatchObject({ can_run_pipelines: true });
    const lastAdmin = await call(service, 'PUT', `/api/users/${admin.id}`, {
      token: admin.token,
      body: { is_admin: false },
    });
    expect(lastAdmin.status).toBe(409);
    const disabled = await call(service, 'PUT', `/api/users/${bob.id}`, {
      token: admin.token,
      body: { disabled: true },
    });
    expect(disabled.body).toMatchObject({ disabled: true });
    // A disabled account's tokens stop working at once, and it cannot log in.
    expect((await call(service, 'GET', '/api/me', { token: bob.token })).status).toBe(401);
    expect((await call(service, 'GET', '/api/token', { cookie: bob.cookie })).status).toBe(401);
    const relog = await call(service, 'POST', '/api/login', { body: { username: 'bob', password: 'password-bob' } });
    expect(relog.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('logout revokes the refresh token and clears the cookie', async () => {
    const s = await login(service, 'admin', 'correct horse');
    const out = await call(service, 'POST', '/api/logout', { cookie: s.cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^service_refresh_token=;.*Max-Age=0/);
    const after = await call(service, 'GET', '/api/token', { cookie: s.cookie });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_REFRESH_TOKEN');
    // Another session of the same user is untouched.
    expect((await call(service, 'GET', '/api/token', { cookie: admin.cookie })).status).toBe(200);
  });

  it('a password change revokes every refresh token of that user', async () => {
    const carol = await addUser(service, admin, 'carol');
    const other = await login(service, 'carol', 'password-carol');
    const wrong = await call(service, 'PUT', '/api/me/password', {
      token: carol.token,
      body: { current_password: 'not-it-at-all', new_password: 'new-password-1' },
    });
    expect(wrong.status).toBe(400);
    const ok = await call(service, 'PUT', '/api/me/password', {
      token: carol.token,
      body: { current_password: 'password-carol', new_password: 'new-password-1' },
    });
    expect(ok.status).toBe(200);
    for (const s of [carol, other]) {
      expect((await call(service, 'GET', '/api/token', { cookie: s.cookie })).body.code).toBe('INVALID_REFRESH_TOKEN');
    }
    expect((await login(service, 'carol', 'new-password-1')).token).toBeTruthy();
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    const secure = await startTestService({ publicUrl: 'https://laneway.lab.example' });
    try {
      await call(secure, 'POST', '/api/setup', {
        body: { username: 'root', password: 'password123', email: 'root@lab.test', name: 'Root' },
      });
      const res = await call(secure, 'POST', '/api/login', { body: { username: 'root', password: 'password123' } });
      expect(res.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await secure.stop();
    }
  });
});
