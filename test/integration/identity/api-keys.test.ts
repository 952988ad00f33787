/**
 * API keys over real HTTP against a real service: created once and shown once, accepted where an
 * access token is (REST, GraphQL over HTTP and WebSocket), revoked at once, expired on the
 * service clock, dead with a disabled account, admin-listable, audited and rate-limited.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from './helpers';

const offset = { ms: 0 };
const clock = { now: () => Date.now() + offset.ms };

describe('API keys', () => {
  let service: TestService;
  let admin: Session;
  let alice: Session;
  let bob: Session;

  const create = async (s: Session | string, body: Record<string, unknown>) =>
    call(service, 'POST', '/api/api-keys', { token: typeof s === 'string' ? s : s.token, body });

  beforeAll(async () => {
    service = await startTestService({ clock });
    admin = await setupAdmin(service);
    alice = await addUser(service, admin, 'alice');
    bob = await addUser(service, admin, 'bob');
  });
  afterAll(async () => {
    await service.stop();
  });

  it('is shown once, stored hashed, and works as a Bearer credential with the last use recorded', async () => {
    const made = await create(alice, { name: 'laptop scripts' });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(key).toMatch(/^lwk_[A-Za-z0-9_-]{43}$/);
    expect(made.body).toMatchObject({
      name: 'laptop scripts',
      user: 'alice',
      last_used: null,
      expires: null,
      revoked: null,
    });
    expect(key.startsWith(made.body.prefix as string)).toBe(true);

    const me = await call(service, 'GET', '/api/me', { token: key });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('alice');

    const listed = await call(service, 'GET', '/api/api-keys', { token: alice.token });
    expect(listed.body.count).toBe(1);
    const item = listed.body.items![0]!;
    expect(item.key).toBeUndefined();
    expect(item.last_used).not.toBeNull();
    // Neither the key nor anything that finds it in full is in the database.
    const stored = service.ctx.db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
    expect(JSON.stringify(stored)).not.toContain(key.slice(4));
    expect(stored[0]!.hash).toMatch(/^[0-9a-f]{64}$/);

    // A key does not mint keys.
    const minted = await create(key, { name: 'from a key' });
    expect(minted.body).toMatchObject({ code: 'PERMISSION_DENIED', status: 403 });
  });

  it('is refused with the spec error body when wrong, and counts as a failure like a password', async () => {
    const made = await create(alice, { name: 'typo' });
    const key = made.body.key as string;
    const wrong = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    const r = await call(service, 'GET', '/api/me', { token: wrong });
    expect(r.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    const garbage = await call(service, 'GET', '/api/me', { token: 'lwk_short' });
    expect(garbage.body).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    const audit = await call(service, 'GET', '/api/audit?action=refused', { token: admin.token });
    expect(audit.body.count).toBeGreaterThanOrEqual(2);
    const entry = audit.body.items!.find((e) => (e.resource as { id: number | null }).id === made.body.id);
    expect(entry).toMatchObject({ user: 'alice', details: { reason: 'wrong secret' } });
  });

  it('stops at once when revoked (by its owner or an admin), and its WebSocket closes', async () => {
    const made = await create(alice, { name: 'ci' });
    const key = made.body.key as string;
    const id = made.body.id as number;

    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      const client = createClient({
        url: `${service.url.replace(/^http/, 'ws')}/api/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${key}` },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => {},
        on: {
          closed: (e) => {
            resolve({ code: (e as CloseEvent).code, reason: String((e as CloseEvent).reason) });
            void client.dispose();
          },
        },
      });
    });
    const gql = await call(service, 'POST', '/api/graphql', { token: key, body: { query: '{ pipelines { id } }' } });
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();

    // Bob sees neither the key nor a way to revoke it.
    expect((await call(service, 'DELETE', `/api/api-keys/${id}`, { token: bob.token })).status).toBe(404);
    expect((await call(service, 'GET', '/api/api-keys?all=true', { token: bob.token })).status).toBe(403);
    // The admin lists everyone's and revokes it.
    const all = await call(service, 'GET', '/api/api-keys?user=alice', { token: admin.token });
    expect(all.body.items!.map((k) => k.id)).toContain(id);
    const revoked = await call(service, 'DELETE', `/api/api-keys/${id}`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).not.toBeNull();
    expect(await closed).toEqual({ code: 4403, reason: 'API key revoked' });
    expect((await call(service, 'GET', '/api/me', { token: key })).body).toMatchObject({ code: 'UNAUTHENTICATED' });
    const audit = await call(service, 'GET', `/api/audit?resource_kind=api_key&resource_id=${id}`, {
      token: admin.token,
    });
    expect(audit.body.items!.map((e) => e.action).sort()).toEqual(['created', 'refused', 'revoked']);
  });

  it("dies with its user's account and carries the user's rights as they are now", async () => {
    const carol = await addUser(service, admin, 'carol', { can_run_pipelines: true });
    const key = (await create(carol, { name: 'runner' })).body.key as string;
    const canRun = async () => (await call(service, 'GET', '/api/me', { token: key })).body.can_run_pipelines;
    expect(await canRun()).toBe(true);
    await call(service, 'PUT', `/api/users/${carol.id}`, { token: admin.token, body: { can_run_pipelines: false } });
    expect(await canRun()).toBe(false);
    await call(service, 'PUT', `/api/users/${carol.id}`, { token: admin.token, body: { disabled: true } });
    expect((await call(service, 'GET', '/api/me', { token: key })).status).toBe(401);
  });

  it('expires on the service clock', async () => {
    const made = await create(bob, { name: 'a week', expires_in_days: 7 });
    expect(Date.parse(made.body.expires as string)).toBeGreaterThan(clock.now() + 6 * 86_400_000);
    const key = made.body.key as string;
    expect((await call(service, 'GET', '/api/me', { token: key })).status).toBe(200);
    offset.ms += 8 * 86_400_000;
    const late = await call(service, 'GET', '/api/me', { token: key });
    expect(late.body).toMatchObject({ code: 'UNAUTHENTICATED', error: 'API key refused (expired)' });
    offset.ms = 0;
  });

  it('rejects bad bodies with VALIDATION_ERROR', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x', expires_in_days: 0 },
      { name: 'x', extra: 1 },
    ]) {
      const r = await create(bob, body);
      expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    }
  });

  // Sign-in counts an IPv6 client by its /64 (identity/sign-in-guard.ts); refused keys must too,
  // or a host rotating through its own /64 gets a fresh budget per address. The service sees
  // the addresses through fastify's inject (real routes, real hooks; only the socket is skipped).
  it('limits refused keys from one IPv6 /64 together, whatever address in it they come from', async () => {
    const refuse = (address: string) =>
      service.app.inject({
        method: 'GET',
        url: '/api/me',
        remoteAddress: address,
        headers: { authorization: `Bearer lwk_${'z'.repeat(43)}` },
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) statuses.push((await refuse(`2001:db8:7:9::${i.toString(16)}`)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array<number>(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // The same /64 written another way, and a host part never used before: still limited.
    expect((await refuse('2001:0db8:0007:0009:ffff:eeee:dddd:1')).statusCode).toBe(429);
    // The next /64 over has its own budget.
    expect((await refuse('2001:db8:7:a::1')).statusCode).toBe(401);
  });

  // Last: it leaves this loopback address limited for 15 minutes of service time.
  it('limits refused keys from one address as passwords are limited, never a good key', async () => {
    const good = (await create(bob, { name: 'good' })).body.key as string;
    let limited: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 12 && !limited; i++) {
      const r = await call(service, 'GET', '/api/me', { token: `lwk_${'x'.repeat(43)}` });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(401);
    }
    expect(limited?.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // A good key from the same address is still accepted (a lab behind one address is not
    // locked out by one script with a revoked key); tokens are untouched too.
    expect((await call(service, 'GET', '/api/me', { token: good })).status).toBe(200);
    expect((await call(service, 'GET', '/api/me', { token: bob.token })).status).toBe(200);
    // Limited refusals are not audited (a flood cannot fill the log).
    const before = (await call(service, 'GET', '/api/audit?action=refused', { token: admin.token })).body.count;
    expect((await call(service, 'GET', '/api/me', { token: `lwk_${'y'.repeat(43)}` })).status).toBe(429);
    expect((await call(service, 'GET', '/api/audit?action=refused', { token: admin.token })).body.count).toBe(before);
    offset.ms += 16 * 60_000;
    expect((await call(service, 'GET', '/api/me', { token: `lwk_${'y'.repeat(43)}` })).status).toBe(401);
  });
});
