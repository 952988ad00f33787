/**
 * Commands that change who may see what: sharing and unsharing (with levels, and "with its
 * reads and results"), and group membership (invite, accept, leave, a member's permission).
 */
import {
  accessTo,
  active,
  derived,
  invite,
  listOf,
  satisfies,
  type Group,
  type Kind,
  type Model,
  type Owned,
  type Perm,
} from './model';
import { gate, pick, SEGMENT, type Command, type Intent, type Real } from './command-kit';
import { checkNotified } from './look-commands';
import { expectAnswer, type Answer } from './wire';

/**
 * A share may be made or changed by whoever holds `share`, with a group they belong to; an
 * existing share made by someone else only by whoever has full control (docs/security.md).
 */
function shareRefusal(m: Model, r: Owned, userId: number, slug: string, perm: Perm) {
  const u = m.users.find((x) => x.id === userId)!;
  const g = gate(m, r, u, 'share');
  if (g) return g;
  if (!active(m, slug, userId)) return { status: 400, code: 'VALIDATION_ERROR' };
  const existing = r.shares.get(slug);
  if (existing && existing.perm !== perm && existing.maker !== userId && accessTo(m, r, userId) !== 'full')
    return { status: 403, code: 'PERMISSION_DENIED' };
  return null;
}

type Refusal = { status: number; code: string } | null;

/** Checks the service's answer against the model's: the expected refusal, or 200. */
function expectOutcome(a: Answer, refused: Refusal, what: string) {
  expectAnswer(a, refused?.status ?? 200, refused?.code ?? null, what);
}

/** The group an intent aims at: among the `eligible` ones when the intent is valid, among all otherwise. */
function aimedGroup(m: Model, i: Intent, eligible: (g: Group) => boolean): Group | undefined {
  return pick(i.valid ? m.groups.filter(eligible) : m.groups, i.target);
}

function checkShares(what: string, body: Record<string, unknown>, r: Owned) {
  const got = JSON.stringify(
    (body.shares as Array<{ group: string; permission: string }>).map((s) => [s.group, s.permission]),
  );
  const want = JSON.stringify([...r.shares].map(([g, s]) => [g, s.perm]).sort());
  if (got !== want) throw new Error(`${what}: shares ${got}, the model has ${want}`);
}

export class Share implements Command {
  constructor(
    readonly i: Intent,
    readonly kind: Kind,
    readonly group: number,
    readonly perm: Perm,
    readonly withData: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const all = listOf(m, this.kind);
    const pairs = all.flatMap((x) => m.groups.map((g) => ({ x, slug: g.slug })));
    const ok = this.i.valid ? pairs.filter((p) => !shareRefusal(m, p.x, u.id, p.slug, this.perm)) : [];
    const chosen = this.i.valid
      ? pick(ok, this.i.target)
      : (() => {
          const x = pick(all, this.i.target);
          const g = pick(m.groups, this.group);
          return x && g ? { x, slug: g.slug } : undefined;
        })();
    if (!chosen) return;
    const { x, slug } = chosen;
    const body = { group: slug, permission: this.perm, with_data: this.withData };
    const a = await r.wire.call('POST', `/api/${SEGMENT[this.kind]}/${x.id}/share/`, u.token, body);
    const refused = shareRefusal(m, x, u.id, slug, this.perm);
    const what = this.toString();
    expectOutcome(a, refused, what);
    if (refused) return;
    const maker = x.shares.get(slug)?.maker ?? u.id;
    x.shares.set(slug, { perm: this.perm, maker });
    const included = { with_data: this.withData, samples: 0, data: 0, executions: 0, skipped: 0 };
    if (this.withData && this.kind !== 'data') {
      for (const d of derived(m, this.kind, x)) {
        if (d.r.shares.has(slug)) continue;
        if (!satisfies(accessTo(m, d.r, u.id), 'share')) {
          included.skipped++;
          continue;
        }
        d.r.shares.set(slug, { perm: 'view', maker: u.id });
        included[d.kind === 'sample' ? 'samples' : d.kind === 'data' ? 'data' : 'executions']++;
      }
    }
    checkShares(what, a.body, x);
    if (JSON.stringify(a.body.included) !== JSON.stringify(included))
      throw new Error(
        `${what}: included ${JSON.stringify(a.body.included)}, the model has ${JSON.stringify(included)}`,
      );
  }
  toString = () =>
    `Share(${JSON.stringify(this.i)}, ${this.kind}, group=${this.group}, ${this.perm}, with_data=${this.withData})`;
}

export class Unshare implements Command {
  constructor(
    readonly i: Intent,
    readonly kind: Kind,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const pairs = listOf(m, this.kind).flatMap((x) => [...x.shares.keys()].map((slug) => ({ x, slug })));
    const removable = (p: { x: Owned; slug: string }) =>
      satisfies(accessTo(m, p.x, u.id), 'share') &&
      (p.x.shares.get(p.slug)!.maker === u.id || accessTo(m, p.x, u.id) === 'full');
    const chosen = pick(this.i.valid ? pairs.filter(removable) : pairs, this.i.target);
    if (!chosen) return;
    const { x, slug } = chosen;
    const a = await r.wire.call('DELETE', `/api/${SEGMENT[this.kind]}/${x.id}/share/${slug}/`, u.token);
    let refused = gate(m, x, u, 'share');
    if (!refused && !removable(chosen)) refused = { status: 403, code: 'PERMISSION_DENIED' };
    expectOutcome(a, refused, this.toString());
    if (refused) return;
    x.shares.delete(slug);
    checkShares(this.toString(), a.body, x);
  }
  toString = () => `Unshare(${JSON.stringify(this.i)}, ${this.kind})`;
}

/** The expected refusal of a group admin's action by `userId` (404 for a stranger, as groups are private). */
function adminRefusal(g: Group, userId: number) {
  const ms = g.members.get(userId);
  if (!ms) return { status: 404, code: 'NOT_FOUND' };
  if (ms.role !== 'admin') return { status: 403, code: 'PERMISSION_DENIED' };
  return null;
}

export class Invite implements Command {
  constructor(
    readonly i: Intent,
    readonly invitee: number,
    readonly perm: Perm,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const g = aimedGroup(m, this.i, (x) => x.members.get(u.id)?.role === 'admin');
    if (!g) return;
    const pool = this.i.valid ? m.users.filter((x) => !active(m, g.slug, x.id)) : m.users;
    const who = pick(pool, this.invitee);
    if (!who) return;
    const a = await r.wire.call('POST', `/api/groups/${g.slug}/invite/`, u.token, {
      emails: [who.email],
      permission: this.perm,
    });
    const refused = adminRefusal(g, u.id);
    expectOutcome(a, refused, this.toString());
    if (refused) return;
    invite(m, g, who.id, this.perm);
    await checkNotified(m, r, who);
  }
  toString = () => `Invite(${JSON.stringify(this.i)}, invitee=${this.invitee}, ${this.perm})`;
}

export class Accept implements Command {
  constructor(readonly i: Intent) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const g = aimedGroup(m, this.i, (x) => x.members.get(u.id)?.role === 'invited');
    if (!g) return;
    const a = await r.wire.call('POST', `/api/groups/${g.slug}/accept/`, u.token, {});
    const ms = g.members.get(u.id);
    const refused = !ms
      ? { status: 404, code: 'NOT_FOUND' }
      : ms.role !== 'invited'
        ? { status: 409, code: 'CONFLICT' }
        : null;
    expectOutcome(a, refused, this.toString());
    if (!refused) ms!.role = 'member';
  }
  toString = () => `Accept(${JSON.stringify(this.i)})`;
}

export class Leave implements Command {
  constructor(readonly i: Intent) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const admins = (g: Group) => [...g.members.values()].filter((x) => x.role === 'admin').length;
    const mayLeave = (g: Group) => {
      const ms = g.members.get(u.id);
      return !!ms && ms.role !== 'invited' && (ms.role !== 'admin' || admins(g) > 1);
    };
    const g = aimedGroup(m, this.i, mayLeave);
    if (!g) return;
    const a = await r.wire.call('POST', `/api/groups/${g.slug}/leave/`, u.token, {});
    const ms = g.members.get(u.id);
    const refused = !ms
      ? { status: 404, code: 'NOT_FOUND' }
      : ms.role === 'invited'
        ? { status: 409, code: 'CONFLICT' }
        : !mayLeave(g)
          ? { status: 409, code: 'LAST_ADMIN' }
          : null;
    expectOutcome(a, refused, this.toString());
    if (!refused) g.members.delete(u.id);
  }
  toString = () => `Leave(${JSON.stringify(this.i)})`;
}

export class SetPermission implements Command {
  constructor(
    readonly i: Intent,
    readonly member: number,
    readonly perm: Perm,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const g = aimedGroup(m, this.i, (x) => x.members.get(u.id)?.role === 'admin');
    if (!g) return;
    const who = pick(this.i.valid ? m.users.filter((x) => g.members.has(x.id)) : m.users, this.member);
    if (!who) return;
    const body = { username: who.username, permission: this.perm };
    const a = await r.wire.call('POST', `/api/groups/${g.slug}/permission/`, u.token, body);
    const refused = adminRefusal(g, u.id) ?? (g.members.has(who.id) ? null : { status: 404, code: 'NOT_FOUND' });
    expectOutcome(a, refused, this.toString());
    if (!refused) g.members.get(who.id)!.permission = this.perm;
  }
  toString = () => `SetPermission(${JSON.stringify(this.i)}, member=${this.member}, ${this.perm})`;
}
