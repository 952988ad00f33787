/**
 * The model of the stateful suite: who owns what, who belongs to which group at which
 * permission, what is shared with whom, and so who may see, edit, share or delete each
 * resource. Written from the rules as documented (design/API.md "Groups, ownership and
 * sharing", docs/security.md "Derived data"), not from the service's code, so that the two
 * can disagree.
 *
 * Every entity has a `key` of its own besides the service's `id`: ids of deleted rows may be
 * handed out again, and a link that outlived its row must not pass for a link to the new one.
 */
export type Perm = 'view' | 'edit' | 'share';
export type Access = Perm | 'full' | null;
export type Kind = 'project' | 'sample' | 'data' | 'execution';

const RANK = { view: 1, edit: 2, share: 3, full: 4 } as const;

export interface User {
  key: number;
  id: number;
  username: string;
  email: string;
  token: string;
  canRun: boolean;
}

export interface Membership {
  role: 'invited' | 'member' | 'admin';
  permission: Perm;
}

export interface Group {
  slug: string;
  members: Map<number, Membership>;
}

export interface Owned {
  key: number;
  id: number;
  ownerUser: number | null;
  ownerGroup: string | null;
  /** Shares by group slug: the permission and who made it. */
  shares: Map<string, { perm: Perm; maker: number }>;
}

export interface Project extends Owned {
  samples: Set<number>;
}
export interface Sample extends Owned {
  name: string;
  read1: number;
  laneKey: number | null;
}
export interface Data extends Owned {
  /** sha256 of the bytes, and the bytes, when the suite knows them. */
  sha256: string | null;
  bytes?: Buffer;
  fastq: boolean;
  /** The sample whose reads these are, or whose run produced them (by key). */
  sampleKey: number | null;
  /** Read 1 of this sample (by key): the record cannot be deleted while it is. */
  readOf: number | null;
  executionKey: number | null;
  /** Reads of a lane: never deletable. */
  laneReads: boolean;
}
export interface Execution extends Owned {
  sampleKeys: number[];
}
export interface Lane {
  key: number;
  id: number;
  ownerUser: number;
}

export interface Model {
  users: User[];
  groups: Group[];
  projects: Project[];
  samples: Sample[];
  data: Data[];
  executions: Execution[];
  lanes: Lane[];
  /** The group invitations each user was notified of, by group slug (one per invitation). */
  notified: Map<number, string[]>;
  nextKey: number;
  /** A tag unique to this run, for names and file contents. */
  tag: string;
  serial: number;
}

export function newModel(tag: string): Model {
  return {
    users: [],
    groups: [],
    projects: [],
    samples: [],
    data: [],
    executions: [],
    lanes: [],
    notified: new Map(),
    nextKey: 1,
    tag,
    serial: 0,
  };
}

export const key = (m: Model) => m.nextKey++;

/** An invitation that is not already open notifies the invitee (an open one is not sent again). */
export function invite(m: Model, g: Group, userId: number, permission: Perm): void {
  const ms = g.members.get(userId);
  if (ms && ms.role !== 'invited') return;
  if (!ms) m.notified.set(userId, [...(m.notified.get(userId) ?? []), g.slug]);
  g.members.set(userId, { role: 'invited', permission });
}

export function listOf(m: Model, kind: Kind): Owned[] {
  return { project: m.projects, sample: m.samples, data: m.data, execution: m.executions }[kind];
}

export function satisfies(a: Access, need: Perm | 'full'): boolean {
  return a !== null && RANK[a] >= RANK[need];
}

const minPerm = (a: Perm, b: Perm): Perm => (RANK[a] <= RANK[b] ? a : b);
const maxAccess = (a: Access, b: Access): Access => (a === null ? b : b === null ? a : RANK[a] >= RANK[b] ? a : b);

/** An accepted membership, or undefined (an invitation grants nothing). */
export function active(m: Model, slug: string, userId: number): Membership | undefined {
  const ms = m.groups.find((g) => g.slug === slug)?.members.get(userId);
  return ms && ms.role !== 'invited' ? ms : undefined;
}

/**
 * The owner and every admin of the owning group have full control; a member of the owning
 * group has their permission there; through a share, the lower of the share's permission and
 * the member's (a group admin counts as share); the best path wins; no one else sees it.
 */
export function accessTo(m: Model, r: Owned, userId: number): Access {
  if (r.ownerUser === userId) return 'full';
  let access: Access = null;
  if (r.ownerGroup !== null) {
    const ms = active(m, r.ownerGroup, userId);
    if (ms?.role === 'admin') return 'full';
    if (ms) access = ms.permission;
  }
  for (const [slug, share] of r.shares) {
    const ms = active(m, slug, userId);
    if (ms) access = maxAccess(access, minPerm(share.perm, ms.role === 'admin' ? 'share' : ms.permission));
  }
  return access;
}

export const sees = (m: Model, r: Owned, userId: number) => accessTo(m, r, userId) !== null;

/** May `userId` create resources owned by group `slug`: an admin, or a member with edit or share. */
export function mayCreateIn(m: Model, slug: string, userId: number): boolean {
  const ms = active(m, slug, userId);
  return !!ms && (ms.role === 'admin' || satisfies(ms.permission, 'edit'));
}

export const sampleByKey = (m: Model, k: number | null) => m.samples.find((s) => s.key === k);

/** A sample's records: its read, then every record attached to it. */
export function sampleData(m: Model, s: Sample): Data[] {
  const read = m.data.find((d) => d.readOf === s.key);
  return [...(read ? [read] : []), ...m.data.filter((d) => d.sampleKey === s.key && d.readOf !== s.key)];
}

/** What "with its reads and results" takes along, in the service's order, without repeats. */
export function derived(m: Model, kind: Kind, r: Owned): Array<{ kind: Kind; r: Owned }> {
  const out: Array<{ kind: Kind; r: Owned }> = [];
  const samples = (list: Sample[]) => {
    for (const s of list) {
      out.push({ kind: 'sample', r: s });
      for (const d of sampleData(m, s)) out.push({ kind: 'data', r: d });
    }
  };
  const executions = (list: Execution[]) => {
    for (const e of list) {
      out.push({ kind: 'execution', r: e });
      for (const d of m.data.filter((x) => x.executionKey === e.key)) out.push({ kind: 'data', r: d });
    }
  };
  const runsOn = (keys: number[]) => m.executions.filter((e) => e.sampleKeys.some((k) => keys.includes(k)));
  if (kind === 'project') {
    const list = m.samples.filter((s) => (r as Project).samples.has(s.key));
    samples(list);
    executions(runsOn(list.map((s) => s.key)));
  } else if (kind === 'sample') {
    for (const d of sampleData(m, r as Sample)) out.push({ kind: 'data', r: d });
    executions(runsOn([r.key]));
  } else if (kind === 'execution') {
    samples((r as Execution).sampleKeys.map((k) => sampleByKey(m, k)).filter((s): s is Sample => !!s));
    for (const d of m.data.filter((x) => x.executionKey === r.key)) out.push({ kind: 'data', r: d });
  }
  const seen = new Set<string>();
  return out.filter((x) => !seen.has(`${x.kind}:${x.r.key}`) && seen.add(`${x.kind}:${x.r.key}`));
}

/** Removes the record of a resource and every link to it. */
export function forget(m: Model, kind: Kind, r: Owned): void {
  if (kind === 'project') m.projects = m.projects.filter((x) => x !== r);
  if (kind === 'data') m.data = m.data.filter((x) => x !== r);
  if (kind === 'sample') {
    m.samples = m.samples.filter((x) => x !== r);
    for (const p of m.projects) p.samples.delete(r.key);
    for (const d of m.data) {
      if (d.sampleKey === r.key) d.sampleKey = null;
      if (d.readOf === r.key) d.readOf = null;
    }
  }
}
