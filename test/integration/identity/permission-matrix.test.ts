import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from './helpers';

type Action = 'read' | 'update' | 'delete' | 'share';
type Actor = 'owner' | 'groupAdmin' | 'view' | 'edit' | 'share' | 'invited' | 'outsider' | 'siteAdmin';
const ACTIONS: Action[] = ['read', 'update', 'delete', 'share'];

const OK: Record<Action, number> = { read: 200, update: 200, delete: 204, share: 200 };
const allowed = (...actions: Action[]) =>
  Object.fromEntries(ACTIONS.map((a) => [a, actions.includes(a) ? OK[a] : 403])) as Record<Action, number>;
const invisible = { read: 404, update: 404, delete: 404, share: 404 };

/** Expected status per actor and action, for each kind of project (design/API.md, ownership and sharing). */
const MATRIX: Record<
  'groupOwned' | 'sharedAtShare' | 'sharedAtEdit',
  Partial<Record<Actor, Record<Action, number>>>
> = {
  groupOwned: {
    groupAdmin: allowed('read', 'update', 'delete', 'share'),
    view: allowed('read'),
    edit: allowed('read', 'update'),
    share: allowed('read', 'update', 'share'),
    invited: invisible,
    outsider: invisible,
    siteAdmin: invisible,
  },
  sharedAtShare: {
    owner: allowed('read', 'update', 'delete', 'share'),
    groupAdmin: allowed('read', 'update', 'share'),
    view: allowed('read'),
    edit: allowed('read', 'update'),
    share: allowed('read', 'update', 'share'),
    invited: invisible,
    outsider: invisible,
    siteAdmin: invisible,
  },
  // A share caps what members get: the lower of the share's and the member's permission.
  sharedAtEdit: {
    owner: allowed('read', 'update', 'delete', 'share'),
    groupAdmin: allowed('read', 'update'),
    view: allowed('read'),
    edit: allowed('read', 'update'),
    share: allowed('read', 'update'),
    invited: invisible,
    outsider: invisible,
  },
};

describe('sharing: the permission matrix on projects', () => {
  let service: TestService;
  const who = {} as Record<Actor, Session>;

  beforeAll(async () => {
    service = await startTestService();
    who.siteAdmin = await setupAdmin(service, 'root');
    for (const [actor, name] of [
      ['owner', 'olivia'],
      ['groupAdmin', 'gina'],
      ['view', 'vic'],
      ['edit', 'eddie'],
      ['share', 'shay'],
      ['invited', 'ivy'],
      ['outsider', 'oscar'],
    ] as const) {
      who[actor] = await addUser(service, who.siteAdmin, name);
    }
    await call(service, 'POST', '/api/groups/', { token: who.groupAdmin.token, body: { name: 'Lab' } });
    const byName = Object.fromEntries(Object.values(who).map((s) => [s.username, s]));
    for (const [name, permission, accept] of [
      ['olivia', 'view', true],
      ['vic', 'view', true],
      ['eddie', 'edit', true],
      ['shay', 'share', true],
      ['ivy', 'edit', false],
    ] as const) {
      await call(service, 'POST', '/api/groups/lab/invite/', {
        token: who.groupAdmin.token,
        body: { emails: [`${name}@lab.test`], permission },
      });
      if (accept) await call(service, 'POST', '/api/groups/lab/accept/', { token: byName[name]!.token });
    }
  });
  afterAll(async () => {
    await service.stop();
  });

  /** A fresh project of the given kind, so that mutating cells do not affect each other. */
  async function freshProject(kind: keyof typeof MATRIX): Promise<number> {
    if (kind === 'groupOwned') {
      const res = await call(service, 'POST', '/api/projects/', {
        token: who.groupAdmin.token,
        body: { name: 'Group project', sample_ids: [], group_owner: 'lab' },
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    }
    const res = await call(service, 'POST', '/api/projects/', {
      token: who.owner.token,
      body: { name: 'Olivia project' },
    });
    const share = await call(service, 'POST', `/api/projects/${res.body.id}/share/`, {
      token: who.owner.token,
      body: { group: 'lab', permission: kind === 'sharedAtShare' ? 'share' : 'edit' },
    });
    expect(share.status).toBe(200);
    return res.body.id as number;
  }

  async function perform(actor: Actor, action: Action, id: number) {
    const token = who[actor].token;
    switch (action) {
      case 'read':
        return call(service, 'GET', `/api/projects/${id}`, { token });
      case 'update':
        return call(service, 'PUT', `/api/projects/${id}`, { token, body: { description: `by ${actor}` } });
      case 'delete':
        return call(service, 'DELETE', `/api/projects/${id}`, { token });
      case 'share':
        // At the level the owner's share already has: changing someone else's share is only
        // for whoever has full control (share-maker.test.ts), sharing is for every share holder.
        return call(service, 'POST', `/api/projects/${id}/share/`, {
          token,
          body: { group: 'lab', permission: 'share' },
        });
    }
  }

  for (const [kind, rows] of Object.entries(MATRIX) as Array<[keyof typeof MATRIX, (typeof MATRIX)['groupOwned']]>) {
    for (const [actor, expected] of Object.entries(rows) as Array<[Actor, Record<Action, number>]>) {
      it(`${kind}: ${actor} -> ${ACTIONS.map((a) => `${a} ${expected[a]}`).join(', ')}`, async () => {
        for (const action of ACTIONS) {
          const id = await freshProject(kind);
          const res = await perform(actor, action, id);
          expect(res.status, `${kind} ${actor} ${action}: ${JSON.stringify(res.body)}`).toBe(expected[action]);
          if (res.status >= 400) expect(res.body).toMatchObject({ status: res.status });
          if (res.status === 403) expect(res.body.code).toBe('PERMISSION_DENIED');
          if (res.status === 404) expect(res.body.code).toBe('NOT_FOUND');
          if (action === 'read' && res.status === 200) {
            expect(res.body.can_edit).toBe(expected.update === 200);
            expect(res.body.can_share).toBe(expected.share === 200);
            expect(res.body.group_owner).toBe(kind === 'groupOwned' ? 'lab' : null);
            expect(res.body.owner).toBe(kind === 'groupOwned' ? null : 'olivia');
          }
        }
      });
    }
  }

  it('lists exactly the visible projects, and reports who has access', async () => {
    const id = await freshProject('sharedAtEdit');
    const mine = await call(service, 'GET', '/api/projects/?per_page=100', { token: who.view.token });
    expect(mine.body.items?.map((p) => p.id)).toContain(id);
    for (const actor of ['invited', 'outsider', 'siteAdmin'] as const) {
      const list = await call(service, 'GET', '/api/projects/', { token: who[actor].token });
      expect(list.body.count, actor).toBe(0);
    }
    const perms = await call(service, 'GET', `/api/projects/${id}/permissions/`, { token: who.view.token });
    expect(perms.body).toMatchObject({ owner: 'olivia', group_owner: null, can_edit: false, can_share: false });
    expect(perms.body.shares).toEqual([{ group: 'lab', name: 'Lab', permission: 'edit' }]);
    expect(perms.body.users).toEqual([
      { username: 'eddie', name: 'eddie', access: 'edit' },
      { username: 'gina', name: 'gina', access: 'edit' },
      { username: 'olivia', name: 'olivia', access: 'full' },
      { username: 'shay', name: 'shay', access: 'edit' },
      { username: 'vic', name: 'vic', access: 'view' },
    ]);
    const unshareDenied = await call(service, 'DELETE', `/api/projects/${id}/share/lab/`, { token: who.edit.token });
    expect(unshareDenied.status).toBe(403);
    const unshare = await call(service, 'DELETE', `/api/projects/${id}/share/lab`, { token: who.owner.token });
    expect(unshare.body.shares).toEqual([]);
    expect((await call(service, 'GET', `/api/projects/${id}`, { token: who.view.token })).status).toBe(404);
    expect((await call(service, 'DELETE', `/api/projects/${id}/share/lab/`, { token: who.owner.token })).status).toBe(
      404,
    );
  });

  it('joining grants what is already shared; leaving loses it at once', async () => {
    const id = await freshProject('groupOwned');
    expect((await call(service, 'GET', `/api/projects/${id}`, { token: who.invited.token })).status).toBe(404);
    await call(service, 'POST', '/api/groups/lab/accept/', { token: who.invited.token });
    const read = await call(service, 'GET', `/api/projects/${id}`, { token: who.invited.token });
    expect(read.body).toMatchObject({ can_edit: true, can_share: false });
    await call(service, 'POST', '/api/groups/lab/leave/', { token: who.invited.token });
    expect((await call(service, 'GET', `/api/projects/${id}`, { token: who.invited.token })).status).toBe(404);
  });

  it('creating in a group needs edit there; unknown groups and samples are validation errors', async () => {
    const viewOnly = await call(service, 'POST', '/api/projects/', {
      token: who.view.token,
      body: { name: 'x', group_owner: 'lab' },
    });
    expect(viewOnly.status).toBe(403);
    const foreign = await call(service, 'POST', '/api/projects/', {
      token: who.outsider.token,
      body: { name: 'x', group_owner: 'lab' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toHaveProperty('group_owner');
    const samples = await call(service, 'POST', '/api/projects/', {
      token: who.edit.token,
      body: { name: 'x', sample_ids: [987654] },
    });
    expect(samples.status).toBe(400);
    expect(samples.body.fields).toHaveProperty('sample_ids');
    const shareForeign = await call(service, 'POST', `/api/projects/${await freshProject('groupOwned')}/share/`, {
      token: who.groupAdmin.token,
      body: { group: 'no-such-group', permission: 'view' },
    });
    expect(shareForeign.status).toBe(400);
  });

  it('share routes exist for every kind; a kind whose table is missing answers 404', async () => {
    for (const segment of ['samples', 'data', 'executions']) {
      const res = await call(service, 'GET', `/api/${segment}/1/permissions/`, { token: who.owner.token });
      expect(res.status, segment).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });
});
