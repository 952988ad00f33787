/**
 * Commands that look: a user's lists compared with what the model says they may see, and one
 * resource read (and, for data, downloaded) with 200 or 404 as the model says, its
 * capabilities, the records it lists, and who has access to it.
 */
import { createHash } from 'node:crypto';
import {
  accessTo,
  active,
  listOf,
  sampleByKey,
  sampleData,
  satisfies,
  sees,
  type Data,
  type Execution,
  type Kind,
  type Model,
  type Project,
  type Sample,
  type User,
} from './model';
import { pick, SEGMENT, type Command, type Real } from './command-kit';
import { expectAnswer } from './wire';

/** The user's invitation notifications (of this run's groups) are the model's, one per invitation. */
export async function checkNotified(m: Model, r: Real, u: User): Promise<void> {
  const got = (await r.wire.all('/api/notifications', u.token))
    .filter((n) => n.kind === 'group_invitation')
    .map((n) => (n.data as { group: string }).group)
    .filter((slug) => m.groups.some((g) => g.slug === slug));
  const want = m.notified.get(u.id) ?? [];
  if (JSON.stringify(got.sort()) !== JSON.stringify([...want].sort()))
    throw new Error(`notifications of ${u.username}: ${JSON.stringify(got)}, the model ${JSON.stringify(want)}`);
}

const ids = (list: Array<{ id: number }>) => JSON.stringify(list.map((x) => x.id).sort((a, b) => a - b));

export class List implements Command {
  constructor(
    readonly actor: number,
    readonly kind: Kind | 'lane' | 'group' | 'notification',
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.actor)!;
    const what = this.toString();
    if (this.kind === 'notification') return checkNotified(m, r, u);
    if (this.kind === 'group') {
      const got = await r.wire.all('/api/groups/', u.token);
      // Invitations are not memberships: the list shows groups joined.
      const mine = m.groups.filter((g) => active(m, g.slug, u.id)).map((g) => g.slug);
      const slugs = got.map((g) => g.slug as string).filter((s) => m.groups.some((g) => g.slug === s));
      if (JSON.stringify(slugs.sort()) !== JSON.stringify(mine.sort()))
        throw new Error(`${what}: groups ${JSON.stringify(slugs)}, the model has ${JSON.stringify(mine)}`);
      if (got.length !== slugs.length) throw new Error(`${what}: groups of other runs: ${JSON.stringify(got)}`);
      return;
    }
    const path = this.kind === 'lane' ? '/api/lanes/' : `/api/${SEGMENT[this.kind]}/`;
    const got = (await r.wire.all(path, u.token)) as Array<{ id: number }>;
    const want =
      this.kind === 'lane'
        ? m.lanes.filter((l) => l.ownerUser === u.id)
        : listOf(m, this.kind).filter((x) => sees(m, x, u.id));
    if (ids(got) !== ids(want)) throw new Error(`${what}: the service lists ${ids(got)}, the model ${ids(want)}`);
    // A list answering 200 is a handler reached; count it as such.
    expectAnswer({ status: 200, body: {}, bytes: Buffer.alloc(0) }, 200, null, what);
  }
  toString = () => `List(actor=${this.actor}, ${this.kind})`;
}

export class Probe implements Command {
  constructor(
    readonly actor: number,
    readonly kind: Kind,
    readonly target: number,
    /** Pick among what the user may see (else among everything). */
    readonly visible: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.actor)!;
    const all = listOf(m, this.kind);
    const x = pick(this.visible ? all.filter((y) => sees(m, y, u.id)) : all, this.target);
    if (!x) return;
    const what = `${this.toString()} id ${x.id}`;
    const access = accessTo(m, x, u.id);
    const a = await r.wire.call('GET', `/api/${SEGMENT[this.kind]}/${x.id}`, u.token);
    expectAnswer(a, access ? 200 : 404, access ? null : 'NOT_FOUND', what);
    if (!access) {
      if (this.kind === 'data') {
        const dl = await r.wire.call('GET', `/api/data/${x.id}/download`, u.token);
        if (dl.status !== 404) throw new Error(`${what}: download of an invisible record answered ${dl.status}`);
      }
      return;
    }
    if (a.body.can_edit !== satisfies(access, 'edit') || a.body.can_share !== satisfies(access, 'share'))
      throw new Error(
        `${what}: can_edit ${String(a.body.can_edit)}, can_share ${String(a.body.can_share)}, access ${access}`,
      );
    // Bodies list only the records the caller may see.
    if (this.kind === 'sample') {
      const want = sampleData(m, x as Sample).filter((d) => sees(m, d, u.id));
      const got = a.body.data as Array<{ id: number }>;
      if (ids(got) !== ids(want)) throw new Error(`${what}: data ${ids(got)}, the model ${ids(want)}`);
      // Its projects: only those the caller may see (issue 24).
      const projects = m.projects.filter((p) => p.samples.has(x.key) && sees(m, p, u.id));
      const gotProjects = JSON.stringify(a.body.project_ids);
      if (gotProjects !== JSON.stringify(projects.map((p) => p.id).sort((p, q) => p - q)))
        throw new Error(`${what}: project_ids ${gotProjects}, the model ${ids(projects)}`);
    }
    if (this.kind === 'project') {
      // Every sample by name (part of the project), ids only of the samples the caller may see.
      const members = m.samples.filter((s) => (x as Project).samples.has(s.key)).sort((p, q) => p.id - q.id);
      const visible = members.filter((s) => sees(m, s, u.id));
      const gotIds = JSON.stringify(a.body.sample_ids);
      if (gotIds !== ids(visible)) throw new Error(`${what}: sample_ids ${gotIds}, the model ${ids(visible)}`);
      const names = JSON.stringify(
        (a.body.samples as Array<{ id?: number; name: string }>).map((s) =>
          s.id === undefined ? { name: s.name } : { id: s.id, name: s.name },
        ),
      );
      const want = JSON.stringify(
        members.map((s) => (sees(m, s, u.id) ? { id: s.id, name: s.name } : { name: s.name })),
      );
      if (names !== want) throw new Error(`${what}: samples ${names}, the model ${want}`);
    }
    if (this.kind === 'execution') {
      const want = m.data.filter((d) => d.executionKey === (x as Execution).key && sees(m, d, u.id));
      const got = a.body.outputs as Array<{ id: number }>;
      if (ids(got) !== ids(want)) throw new Error(`${what}: outputs ${ids(got)}, the model ${ids(want)}`);
      // The samples it ran on, named only where the caller may see them (and only while they exist).
      const names = JSON.stringify((a.body.samples as Array<{ name: string | null }>).map((s) => s.name));
      const wantNames = JSON.stringify(
        (x as Execution).sampleKeys.map((k) => {
          const s = sampleByKey(m, k);
          return s && sees(m, s, u.id) ? s.name : null;
        }),
      );
      if (names !== wantNames) throw new Error(`${what}: sample names ${names}, the model ${wantNames}`);
    }
    if (this.kind === 'data') {
      const dl = await r.wire.call('GET', `/api/data/${x.id}/download`, u.token);
      const d = x as Data;
      // The run that made it, named only when the caller may see that run (issue 24).
      const run = m.executions.find((e) => e.key === d.executionKey);
      const wantRun = run && sees(m, run, u.id) ? run.id : null;
      if ((a.body.execution_id ?? null) !== wantRun)
        throw new Error(`${what}: execution_id ${String(a.body.execution_id)}, the model ${String(wantRun)}`);
      const sum = createHash('sha256').update(dl.bytes).digest('hex');
      if (dl.status !== 200 || (d.sha256 !== null && sum !== d.sha256))
        throw new Error(`${what}: download answered ${dl.status}, sha256 ${sum}, the model ${String(d.sha256)}`);
    }
    const perms = await r.wire.call('GET', `/api/${SEGMENT[this.kind]}/${x.id}/permissions/`, u.token);
    const got = (perms.body.users as Array<{ username: string; access: string }>).map(
      (p) => `${p.username}:${p.access}`,
    );
    const want = m.users.flatMap((v) => {
      const acc = accessTo(m, x, v.id);
      return acc ? [`${v.username}:${acc}`] : [];
    });
    if (JSON.stringify(got.sort()) !== JSON.stringify(want.sort()))
      throw new Error(`${what}: who has access: ${JSON.stringify(got)}, the model ${JSON.stringify(want)}`);
  }
  toString = () => `Probe(actor=${this.actor}, ${this.kind}, ${this.target}, visible=${this.visible})`;
}
