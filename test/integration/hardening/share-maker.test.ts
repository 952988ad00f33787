/**
 * Issue 24 item 7 (low): "a member with `share` can delete the owner's own share", and could lower
 * it by sharing again at another level. Now a share is changed or removed only by whoever has
 * full control or by the person who made it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from '../identity/helpers';

describe("a share holder cannot undo the owner's shares (issue 24 item 7)", () => {
  let service: TestService;
  let alice: Session;
  let bob: Session;
  let project: number;
  beforeAll(async () => {
    service = await startTestService();
    const admin = await setupAdmin(service, 'admin');
    alice = await addUser(service, admin, 'alice');
    bob = await addUser(service, admin, 'bob');
    const group = async (owner: Session, name: string, members: Session[]) => {
      const slug = (await call(service, 'POST', '/api/groups/', { token: owner.token, body: { name } })).body
        .slug as string;
      for (const m of members) {
        const body = { emails: [`${m.username}@lab.test`], permission: 'share' };
        expect((await call(service, 'POST', `/api/groups/${slug}/invite/`, { token: owner.token, body })).status).toBe(
          200,
        );
        expect((await call(service, 'POST', `/api/groups/${slug}/accept/`, { token: m.token, body: {} })).status).toBe(
          200,
        );
      }
      return slug;
    };
    await group(alice, 'Lab', [bob]);
    await group(bob, 'Team', []);
    project = (await call(service, 'POST', '/api/projects/', { token: alice.token, body: { name: 'P' } })).body
      .id as number;
    const share = await call(service, 'POST', `/api/projects/${project}/share/`, {
      token: alice.token,
      body: { group: 'lab', permission: 'share' },
    });
    expect(share.status).toBe(200);
  });
  afterAll(async () => {
    await service.stop();
  });

  it("bob, with share through the owner's share, cannot delete it", async () => {
    const del = await call(service, 'DELETE', `/api/projects/${project}/share/lab/`, { token: bob.token });
    expect(del).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    const perms = await call(service, 'GET', `/api/projects/${project}/permissions/`, { token: alice.token });
    expect(perms.body.shares).toEqual([{ group: 'lab', name: 'Lab', permission: 'share' }]);
  });

  it("bob cannot lower the owner's share by sharing again; the same level is no change", async () => {
    const lower = await call(service, 'POST', `/api/projects/${project}/share/`, {
      token: bob.token,
      body: { group: 'lab', permission: 'view' },
    });
    expect(lower).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    const same = await call(service, 'POST', `/api/projects/${project}/share/`, {
      token: bob.token,
      body: { group: 'lab', permission: 'share', with_data: true },
    });
    expect(same.status).toBe(200);
    const perms = await call(service, 'GET', `/api/projects/${project}/permissions/`, { token: alice.token });
    expect(perms.body.shares).toEqual([{ group: 'lab', name: 'Lab', permission: 'share' }]);
  });

  it('bob can share with his own group, change and undo that; the owner can undo anything', async () => {
    const share = await call(service, 'POST', `/api/projects/${project}/share/`, {
      token: bob.token,
      body: { group: 'team', permission: 'view' },
    });
    expect(share.status).toBe(200);
    const change = await call(service, 'POST', `/api/projects/${project}/share/`, {
      token: bob.token,
      body: { group: 'team', permission: 'edit' },
    });
    expect(change.status).toBe(200);
    expect((await call(service, 'DELETE', `/api/projects/${project}/share/team/`, { token: bob.token })).status).toBe(
      200,
    );
    expect((await call(service, 'DELETE', `/api/projects/${project}/share/lab/`, { token: alice.token })).status).toBe(
      200,
    );
  });
});
