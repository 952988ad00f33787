import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, login, setupAdmin, type Session } from './helpers';

describe('groups: every membership transition and each refusal', () => {
  let service: TestService;
  let alice: Session; // creates the group: its first admin
  let bob: Session;
  let carol: Session;
  let erin: Session; // never in the group
  let slug: string;

  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
    bob = await addUser(service, alice, 'bob');
    carol = await addUser(service, alice, 'carol');
    erin = await addUser(service, alice, 'erin');
  });
  afterAll(async () => {
    await service.stop();
  });

  const act = (who: Session, action: string, body?: unknown) =>
    call(service, 'POST', `/api/groups/${slug}/${action}/`, { token: who.token, body });
  const roleOf = async (username: string) => {
    const g = await call(service, 'GET', `/api/groups/${slug}/`, { token: alice.token });
    return (
      (g.body.members as Array<{ username: string; role: string }>).find((m) => m.username === username)?.role ?? null
    );
  };
  const expectError = (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ code, status });
    expect(typeof res.body.error).toBe('string');
  };

  it('creates a group with an ASCII slug from the name; the creator is its admin', async () => {
    const res = await call(service, 'POST', '/api/groups/', {
      token: alice.token,
      body: { name: 'Génomique Lab #1', description: 'Sequencing core' },
    });
    expect(res.status).toBe(201);
    slug = res.body.slug as string;
    expect(slug).toBe('genomique-lab-1');
    expect(res.body).toMatchObject({ name: 'Génomique Lab #1', role: 'admin', permission: 'share' });
    const again = await call(service, 'POST', '/api/groups', { token: erin.token, body: { name: 'genomique lab 1' } });
    expect(again.body.slug).toBe('genomique-lab-1-2');
    const symbols = await call(service, 'POST', '/api/groups/', { token: erin.token, body: { name: '☃☃☃' } });
    expect(symbols.body.slug).toBe('group');
    expectError(
      await call(service, 'POST', '/api/groups/', { token: erin.token, body: { name: '   ' } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('invite: only an admin; the invitee becomes Invited at the chosen permission', async () => {
    expectError(await act(erin, 'invite', { emails: ['bob@lab.test'], permission: 'view' }), 404, 'NOT_FOUND');
    const res = await act(alice, 'invite', { emails: ['bob@lab.test', 'carol@lab.test'], permission: 'edit' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invited: ['bob@lab.test', 'carol@lab.test'], pending: [], already_members: [] });
    expect(await roleOf('bob')).toBe('invited');
    // An invitee is not an admin either.
    expectError(await act(bob, 'invite', { emails: ['erin@lab.test'], permission: 'view' }), 403, 'PERMISSION_DENIED');
    const me = await call(service, 'GET', '/api/me', { token: bob.token });
    expect(me.body.invitations).toEqual([
      { group: slug, group_name: 'Génomique Lab #1', invited_by: 'alice', permission: 'edit' },
    ]);
    expect(me.body.groups).toEqual([]);
  });

  it('an invitation grants nothing: the invitee may look at the group but not act in it', async () => {
    expect((await call(service, 'GET', `/api/groups/${slug}/`, { token: bob.token })).status).toBe(200);
    expectError(await act(bob, 'leave'), 409, 'CONFLICT');
    const list = await call(service, 'GET', '/api/groups/', { token: bob.token });
    expect(list.body.items?.map((g) => g.slug)).not.toContain(slug);
  });

  it('accept: only the invitee; Invited -> Member', async () => {
    expectError(await act(erin, 'accept'), 404, 'NOT_FOUND');
    expect((await act(bob, 'accept')).status).toBe(200);
    expect(await roleOf('bob')).toBe('member');
    expectError(await act(bob, 'accept'), 409, 'CONFLICT');
    const me = await call(service, 'GET', '/api/me', { token: bob.token });
    expect(me.body.groups).toEqual([{ slug, name: 'Génomique Lab #1', role: 'member', permission: 'edit' }]);
  });

  it('decline: only the invitee; Invited -> no membership', async () => {
    expectError(await act(bob, 'decline'), 409, 'CONFLICT');
    expectError(await act(erin, 'decline'), 404, 'NOT_FOUND');
    expect((await act(carol, 'decline')).status).toBe(200);
    expect(await roleOf('carol')).toBeNull();
    expectError(await call(service, 'GET', `/api/groups/${slug}/`, { token: carol.token }), 404, 'NOT_FOUND');
  });

  it('promote: only an admin, only a Member; Member -> Admin', async () => {
    await act(alice, 'invite', { emails: ['carol@lab.test'], permission: 'view' });
    expectError(await act(alice, 'promote', { username: 'carol' }), 409, 'CONFLICT'); // still invited
    expectError(await act(bob, 'promote', { username: 'bob' }), 403, 'PERMISSION_DENIED');
    expectError(await act(alice, 'promote', { username: 'erin' }), 404, 'NOT_FOUND');
    expectError(await act(alice, 'promote', { username: 'nobody' }), 404, 'NOT_FOUND');
    expectError(await act(alice, 'promote', { username: 'alice' }), 409, 'CONFLICT'); // already admin
    expect((await act(alice, 'promote', { username: 'bob' })).status).toBe(200);
    expect(await roleOf('bob')).toBe('admin');
  });

  it('demote: only an admin, only an Admin, never the last; Admin -> Member', async () => {
    expect((await act(carol, 'accept')).status).toBe(200);
    expectError(await act(carol, 'demote', { username: 'bob' }), 403, 'PERMISSION_DENIED');
    expectError(await act(alice, 'demote', { username: 'carol' }), 409, 'CONFLICT'); // not an admin
    expect((await act(alice, 'demote', { username: 'bob' })).status).toBe(200);
    expect(await roleOf('bob')).toBe('member');
    expectError(await act(alice, 'demote', { username: 'alice' }), 409, 'LAST_ADMIN');
    expect(await roleOf('alice')).toBe('admin');
  });

  it('remove: only an admin; Member or Admin -> none; never the last admin', async () => {
    expectError(await act(bob, 'remove', { username: 'carol' }), 403, 'PERMISSION_DENIED');
    expectError(await act(alice, 'remove', { username: 'alice' }), 409, 'LAST_ADMIN');
    expectError(await act(alice, 'remove', { username: 'erin' }), 404, 'NOT_FOUND');
    expect((await act(alice, 'remove', { username: 'carol' })).status).toBe(200);
    expect(await roleOf('carol')).toBeNull();
    // An admin who is not the last can be removed.
    await act(alice, 'promote', { username: 'bob' });
    // Not by themselves: that is leave, whose answer is not the group's details.
    expectError(await act(alice, 'remove', { username: 'alice' }), 409, 'CONFLICT');
    expect(await roleOf('alice')).toBe('admin');
    expect((await act(alice, 'remove', { username: 'bob' })).status).toBe(200);
    expect(await roleOf('bob')).toBeNull();
    // Removing an open invitation revokes it.
    await act(alice, 'invite', { emails: ['erin@lab.test'], permission: 'view' });
    expect((await act(alice, 'remove', { username: 'erin' })).status).toBe(200);
    expect((await call(service, 'GET', '/api/me', { token: erin.token })).body.invitations).toEqual([]);
  });

  it('leave: a Member or an Admin who is not the last; the last admin gets LAST_ADMIN', async () => {
    expectError(await act(alice, 'leave'), 409, 'LAST_ADMIN');
    expectError(await act(erin, 'leave'), 404, 'NOT_FOUND');
    await act(alice, 'invite', { emails: ['bob@lab.test'], permission: 'share' });
    await act(bob, 'accept');
    expect((await act(bob, 'leave')).status).toBe(200);
    expect(await roleOf('bob')).toBeNull();
    await act(alice, 'invite', { emails: ['bob@lab.test'], permission: 'share' });
    await act(bob, 'accept');
    await act(alice, 'promote', { username: 'bob' });
    expect((await act(alice, 'leave')).status).toBe(200);
    expectError(await call(service, 'GET', `/api/groups/${slug}/`, { token: alice.token }), 404, 'NOT_FOUND');
    expectError(await act(bob, 'leave'), 409, 'LAST_ADMIN');
  });

  it('permission: an admin changes what a member may do', async () => {
    await act(bob, 'invite', { emails: ['carol@lab.test'], permission: 'view' });
    await act(carol, 'accept');
    expectError(await act(carol, 'permission', { username: 'carol', permission: 'share' }), 403, 'PERMISSION_DENIED');
    const res = await act(bob, 'permission', { username: 'carol', permission: 'edit' });
    expect((res.body.members as Array<Record<string, string>>).find((m) => m.username === 'carol')).toMatchObject({
      role: 'member',
      permission: 'edit',
    });
  });

  it('update and delete: admin only; the slug stays when the name changes', async () => {
    expectError(
      await call(service, 'PUT', `/api/groups/${slug}/`, { token: carol.token, body: { name: 'Mine now' } }),
      403,
      'PERMISSION_DENIED',
    );
    const upd = await call(service, 'PUT', `/api/groups/${slug}`, { token: bob.token, body: { name: 'Renamed Lab' } });
    expect(upd.body).toMatchObject({ slug, name: 'Renamed Lab', description: 'Sequencing core' });
    expectError(
      await call(service, 'DELETE', `/api/groups/${slug}/`, { token: carol.token }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await call(service, 'DELETE', `/api/groups/${slug}/`, { token: erin.token }), 404, 'NOT_FOUND');
  });

  it('delete hands the group-owned resources to the deleting admin and drops its shares', async () => {
    const owned = await call(service, 'POST', '/api/projects/', {
      token: carol.token,
      body: { name: 'Group project', sample_ids: [], group_owner: slug },
    });
    expect(owned.body).toMatchObject({ owner: null, group_owner: slug });
    const mine = await call(service, 'POST', '/api/projects/', { token: carol.token, body: { name: 'Shared' } });
    await call(service, 'POST', `/api/projects/${mine.body.id}/share/`, {
      token: carol.token,
      body: { group: slug, permission: 'view' },
    });
    const del = await call(service, 'DELETE', `/api/groups/${slug}/`, { token: bob.token });
    expect(del.body).toEqual({ deleted: slug, handed_over_to: 'bob', handed_over: { project: 1 } });
    const after = await call(service, 'GET', `/api/projects/${owned.body.id}`, { token: bob.token });
    expect(after.body).toMatchObject({ owner: 'bob', group_owner: null, can_share: true });
    expect((await call(service, 'GET', `/api/projects/${owned.body.id}`, { token: carol.token })).status).toBe(404);
    const perms = await call(service, 'GET', `/api/projects/${mine.body.id}/permissions/`, { token: carol.token });
    expect(perms.body.shares).toEqual([]);
    expect((await call(service, 'GET', '/api/me', { token: carol.token })).body.groups).toEqual([]);
  });

  it('an address without an account gets the invitation when the account is created', async () => {
    const g = await call(service, 'POST', '/api/groups/', { token: alice.token, body: { name: 'Later' } });
    const res = await call(service, 'POST', `/api/groups/${g.body.slug}/invite/`, {
      token: alice.token,
      body: { emails: ['Newcomer@Lab.test'], permission: 'view' },
    });
    expect(res.body).toMatchObject({
      pending: ['Newcomer@Lab.test'],
      pending_invitations: [{ email: 'Newcomer@Lab.test' }],
    });
    // A pending invitation can be withdrawn by address, and sent again.
    const withdraw = (email: string) =>
      call(service, 'POST', `/api/groups/${g.body.slug}/remove/`, { token: alice.token, body: { email } });
    expect((await withdraw('newcomer@lab.test')).body.pending_invitations).toEqual([]);
    expectError(await withdraw('newcomer@lab.test'), 404, 'NOT_FOUND');
    expectError(
      await call(service, 'POST', `/api/groups/${g.body.slug}/remove/`, {
        token: alice.token,
        body: { email: 'a@b.c', username: 'bob' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    await call(service, 'POST', `/api/groups/${g.body.slug}/invite/`, {
      token: alice.token,
      body: { emails: ['Newcomer@Lab.test'], permission: 'view' },
    });
    await call(service, 'POST', '/api/users/', {
      token: alice.token,
      body: { username: 'newcomer', password: 'password123', email: 'newcomer@lab.test', name: 'New' },
    });
    const newcomer = await login(service, 'newcomer', 'password123');
    const me = await call(service, 'GET', '/api/me', { token: newcomer.token });
    expect(me.body.invitations).toEqual([
      { group: 'later', group_name: 'Later', invited_by: 'alice', permission: 'view' },
    ]);
    const notes = await call(service, 'GET', '/api/notifications', { token: newcomer.token });
    expect(notes.body.items?.[0]).toMatchObject({ kind: 'group_invitation', data: { group: 'later' }, read: false });
    expect((await call(service, 'POST', '/api/groups/later/accept/', { token: newcomer.token })).status).toBe(200);
  });
});
