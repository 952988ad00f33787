/**
 * A fresh world for each run of the stateful suite, on one shared service: four new users
 * made by the admin (the fourth may not run pipelines) and two groups with members at
 * different permissions. Users of earlier runs share nothing with them, so each run's model
 * starts empty and what earlier runs left behind must stay invisible.
 */
import type { Real } from './command-kit';
import { invite, newModel, type Group, type Model, type User } from './model';
import { CreateProject, CreateSample, Upload } from './resource-commands';
import { tally, type Wire } from './wire';

export interface Admin {
  token: string;
}

async function ok(what: string, p: Promise<{ status: number; body: Record<string, unknown> }>, status = 200) {
  const a = await p;
  if (a.status !== status) throw new Error(`setup: ${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body;
}

export async function freshWorld(wire: Wire, admin: Admin, tag: string): Promise<Model> {
  const m = newModel(tag);
  for (const [name, canRun] of [
    ['ana', true],
    ['ben', true],
    ['cat', true],
    ['dan', false],
  ] as const) {
    const username = `${name}${tag}`;
    const email = `${username}@lab.test`;
    const password = `password of ${username}`;
    const body = { username, password, email, name, can_run_pipelines: canRun };
    const made = await ok(`create ${username}`, wire.call('POST', '/api/users/', admin.token, body), 201);
    const login = await ok(`login ${username}`, wire.call('POST', '/api/login', null, { username, password }));
    const user: User = {
      key: m.nextKey++,
      id: made.id as number,
      username,
      email,
      token: login.token as string,
      canRun,
    };
    m.users.push(user);
  }
  const [ana, ben, cat, dan] = m.users as [User, User, User, User];
  const group = async (owner: User, name: string, members: Array<[User, 'view' | 'edit' | 'share']>) => {
    const made = await ok(
      `group ${name}`,
      wire.call('POST', '/api/groups/', owner.token, { name: `${name} ${tag}` }),
      201,
    );
    const g: Group = {
      slug: made.slug as string,
      members: new Map([[owner.id, { role: 'admin', permission: 'share' }]]),
    };
    for (const [u, permission] of members) {
      const body = { emails: [u.email], permission };
      await ok(`invite ${u.username}`, wire.call('POST', `/api/groups/${g.slug}/invite/`, owner.token, body));
      invite(m, g, u.id, permission);
      await ok(`accept ${u.username}`, wire.call('POST', `/api/groups/${g.slug}/accept/`, u.token, {}));
      g.members.set(u.id, { role: 'member', permission });
    }
    m.groups.push(g);
  };
  await group(ana, 'Lab', [
    [ben, 'edit'],
    [cat, 'view'],
  ]);
  await group(ben, 'Team', [
    [cat, 'share'],
    [dan, 'share'],
  ]);
  return m;
}

/**
 * Something for everyone to share from the first command on: each user uploads two files (one
 * in chunks), makes a sample of one and a project holding it. Through the same commands (and
 * the same checks), but not counted in the suite's tally.
 */
export async function seedWorld(m: Model, real: Real): Promise<void> {
  const before = { ...tally, byName: structuredClone(tally.byName) };
  const plan = (chunkBytes: number) => ({
    reads: 4,
    chunkBytes,
    order: [3, 1, 2, 0, 4, 5, 6, 7],
    resend: [false, true, false, false, false, false, false, false],
    checksumEarly: false,
    duplicate: false,
    resendLast: false,
  });
  for (const actor of m.users.keys()) {
    const i = { valid: true, actor, target: 0 };
    await new Upload(i, plan(100)).run(m, real);
    await new Upload(i, plan(4096)).run(m, real);
    await new CreateProject(i, false).run(m, real);
    const project = m.projects.length - 1;
    await new CreateSample({ ...i, target: m.data.length - 1 }, project, false).run(m, real);
  }
  Object.assign(tally, before);
}
