/**
 * Issue 24 item 7 (low): "the audit log records no admin grant or revoke, password reset,
 * promotion, permission change, webhook change, failed login or rename (only creations)". Each
 * is done over HTTP here and must appear in GET /api/audit with what changed (never a password).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, login, setupAdmin, type Session } from '../identity/helpers';

type Entry = {
  action: string;
  user: string | null;
  resource: { kind: string; name: string | null };
  details: Record<string, unknown>;
};

describe('the audit log records changes of rights, credentials, names and webhooks, and failed sign-ins (issue 24 item 7)', () => {
  const clock = { t: Date.parse('2026-03-01T09:00:00Z'), now: () => clock.t };
  let service: TestService;
  let admin: Session;
  let alice: Session;
  beforeAll(async () => {
    service = await startTestService({ clock });
    admin = await setupAdmin(service, 'admin');
    alice = await addUser(service, admin, 'alice');
  });
  afterAll(async () => {
    await service.stop();
  });

  const entries = async (query: string) =>
    (await call(service, 'GET', `/api/audit?per_page=100&${query}`, { token: admin.token })).body
      .items as unknown as Entry[];

  it('admin grants, revokes and resets, and a user changing their own password', async () => {
    const id = alice.id;
    for (const body of [
      { is_admin: true },
      { is_admin: false, can_run_pipelines: true },
      { password: 'reset by admin 1' },
    ]) {
      expect((await call(service, 'PUT', `/api/users/${id}`, { token: admin.token, body })).status).toBe(200);
    }
    alice = await login(service, 'alice', 'reset by admin 1');
    const own = await call(service, 'PUT', '/api/me/password', {
      token: alice.token,
      body: { current_password: 'reset by admin 1', new_password: 'alice chose this one' },
    });
    expect(own.status).toBe(200);
    const log = (await entries('resource_kind=user')).filter((e) => e.resource.name === 'alice');
    const summary = log.map((e) => [e.action, e.user, e.details]);
    expect(summary).toEqual([
      ['password_changed', 'alice', {}],
      ['updated', 'admin', { password_reset: true }],
      ['updated', 'admin', { is_admin: { from: 1, to: 0 }, can_run_pipelines: { from: 0, to: 1 } }],
      ['updated', 'admin', { is_admin: { from: 0, to: 1 } }],
      ['created', 'admin', { admin: false }],
    ]);
    expect(JSON.stringify(log)).not.toContain('reset by admin');
  });

  it('renames of projects, samples and groups, and webhook changes', async () => {
    alice = await login(service, 'alice', 'alice chose this one');
    const project = (await call(service, 'POST', '/api/projects/', { token: alice.token, body: { name: 'Old' } })).body
      .id as number;
    expect(
      (await call(service, 'PUT', `/api/projects/${project}`, { token: alice.token, body: { name: 'New' } })).status,
    ).toBe(200);
    const slug = (await call(service, 'POST', '/api/groups/', { token: alice.token, body: { name: 'G1' } })).body
      .slug as string;
    expect(
      (await call(service, 'PUT', `/api/groups/${slug}`, { token: alice.token, body: { name: 'G2' } })).status,
    ).toBe(200);
    const hook = (
      await call(service, 'POST', '/api/webhooks', { token: alice.token, body: { url: 'https://hooks.example.org/a' } })
    ).body.id as number;
    expect(
      (await call(service, 'PATCH', `/api/webhooks/${hook}`, { token: alice.token, body: { active: false } })).status,
    ).toBe(200);
    const updated = await entries('action=updated&user=alice');
    expect(updated.map((e) => [e.resource.kind, e.details])).toEqual([
      ['webhook', { active: { from: 1, to: 0 } }],
      ['group', { name: { from: 'G1', to: 'G2' } }],
      ['project', { name: { from: 'Old', to: 'New' } }],
    ]);
  });

  it("changes of a member's rights in a group: promotion, demotion, permission, removal", async () => {
    alice = await login(service, 'alice', 'alice chose this one');
    const bob = await addUser(service, admin, 'bob');
    const slug = (await call(service, 'POST', '/api/groups/', { token: alice.token, body: { name: 'Rights' } })).body
      .slug as string;
    const act = (action: string, body: Record<string, unknown>, who = alice) =>
      call(service, 'POST', `/api/groups/${slug}/${action}/`, { token: who.token, body });
    expect((await act('invite', { emails: ['bob@lab.test'], permission: 'view' })).status).toBe(200);
    expect((await act('accept', {}, bob)).status).toBe(200);
    expect((await act('promote', { username: 'bob' })).status).toBe(200);
    expect((await act('demote', { username: 'bob' })).status).toBe(200);
    const perm = await call(service, 'POST', `/api/groups/${slug}/permission/`, {
      token: alice.token,
      body: { username: 'bob', permission: 'edit' },
    });
    expect(perm.status).toBe(200);
    expect((await act('remove', { username: 'bob' })).status).toBe(200);
    const log = (await entries('action=updated&resource_kind=group&user=alice')).filter(
      (e) => e.resource.name === 'Rights',
    );
    expect(log.map((e) => e.details)).toEqual([
      { member: 'bob', removed: true, role: 'member' },
      { member: 'bob', permission: { from: 'view', to: 'edit' } },
      { member: 'bob', role: { from: 'admin', to: 'member' } },
      { member: 'bob', role: { from: 'member', to: 'admin' } },
    ]);
  });

  it('failed sign-ins, summed per username and address, without a write per attempt', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (await call(service, 'POST', '/api/login', { body: { username: 'alice', password: `no-${i}` } })).status,
      ).toBe(401);
    }
    expect((await call(service, 'POST', '/api/login', { body: { username: 'ghost', password: 'x' } })).status).toBe(
      401,
    );
    expect(await entries('action=sign_in_failed')).toEqual([]);
    // A minute later the next failure writes the summary (itself included).
    clock.t += 61_000;
    admin = await login(service, 'admin', 'correct horse');
    expect((await call(service, 'POST', '/api/login', { body: { username: 'alice', password: 'late' } })).status).toBe(
      401,
    );
    const failed = await entries('action=sign_in_failed');
    const byName = Object.fromEntries(failed.map((e) => [e.resource.name, e.details]));
    expect(byName.alice).toMatchObject({ count: 4 });
    expect(byName.ghost).toMatchObject({ count: 1 });
    expect(typeof byName.alice!.address).toBe('string');
  });
});
