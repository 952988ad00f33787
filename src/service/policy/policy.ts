/**
 * The one place that decides who may do what to an owned resource (API.md, "Groups, ownership
 * and sharing"). Its owner, and every admin of its owning group, have full control. A member
 * of the owning group has the permission the group gave them. Through a share, access is the
 * lower of the share's permission and the member's permission in that group (an admin of the
 * group counts as share). Invitations not yet accepted grant nothing. The best path wins.
 * Service administrators get no implicit access to other people's resources.
 */
import type { Db } from '../db/database';
import { errors } from '../http/api-error';
import type { AuthUser } from '../identity/authenticate';
import { kindTableExists, RESOURCE_KINDS, type ResourceKind } from './resource-kinds';

export type Permission = 'view' | 'edit' | 'share';
export type Access = 'full' | Permission | null;

const RANK: Record<Exclude<Access, null>, number> = { view: 1, edit: 2, share: 3, full: 4 };

/** The stronger of two accesses. */
export function maxAccess(a: Access, b: Access): Access {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** The weaker of two permissions. */
export function minPermission(a: Permission, b: Permission): Permission {
  return RANK[a] <= RANK[b] ? a : b;
}

/** True when `access` includes `need`. */
export function satisfies(access: Access, need: Permission | 'full'): boolean {
  return access !== null && RANK[access] >= RANK[need];
}

interface Owners {
  owner_user_id: number | null;
  owner_group_id: number | null;
}

function ownersOf(db: Db, kind: ResourceKind, id: number): Owners | undefined {
  if (!Number.isSafeInteger(id) || !kindTableExists(db, kind)) return undefined;
  return db.prepare(`SELECT owner_user_id, owner_group_id FROM ${RESOURCE_KINDS[kind].table} WHERE id = ?`).get(id) as
    Owners | undefined;
}

interface ActiveMembership {
  role: 'member' | 'admin';
  permission: Permission;
}

function activeMembership(db: Db, groupId: number, userId: number): ActiveMembership | undefined {
  return db
    .prepare(
      "SELECT role, permission FROM memberships WHERE group_id = ? AND user_id = ? AND role IN ('member', 'admin')",
    )
    .get(groupId, userId) as ActiveMembership | undefined;
}

/** The caller's effective access to one resource; null when it is invisible or does not exist. */
export function accessTo(db: Db, kind: ResourceKind, id: number, user: AuthUser): Access {
  const owners = ownersOf(db, kind, id);
  if (!owners) return null;
  if (owners.owner_user_id === user.id) return 'full';
  let access: Access = null;
  if (owners.owner_group_id !== null) {
    const m = activeMembership(db, owners.owner_group_id, user.id);
    if (m?.role === 'admin') return 'full';
    if (m) access = m.permission;
  }
  const shared = db
    .prepare(
      `SELECT s.permission AS share, m.role AS role, m.permission AS member
       FROM shares s JOIN memberships m ON m.group_id = s.group_id
       WHERE s.kind = ? AND s.resource_id = ? AND m.user_id = ? AND m.role IN ('member', 'admin')`,
    )
    .all(kind, id, user.id) as Array<{ share: Permission; role: string; member: Permission }>;
  for (const row of shared) {
    access = maxAccess(access, minPermission(row.share, row.role === 'admin' ? 'share' : row.member));
  }
  return access;
}

/** Throws NOT_FOUND when the resource is invisible to the caller, PERMISSION_DENIED when access is short of `need`. */
export function requireAccess(db: Db, kind: ResourceKind, id: number, user: AuthUser, need: Permission): void {
  const access = accessTo(db, kind, id, user);
  if (access === null) throw errors.notFound(RESOURCE_KINDS[kind].label);
  if (!satisfies(access, need)) {
    throw errors.permissionDenied(`${RESOURCE_KINDS[kind].label} ${id}: you need ${need} permission`);
  }
}

/** Throws unless the caller has full control (owner, or admin of the owning group): deletes. */
export function requireFullControl(db: Db, kind: ResourceKind, id: number, user: AuthUser): void {
  const access = accessTo(db, kind, id, user);
  if (access === null) throw errors.notFound(RESOURCE_KINDS[kind].label);
  if (access !== 'full') {
    throw errors.permissionDenied(
      `${RESOURCE_KINDS[kind].label} ${id}: only its owner or an admin of its group can do this`,
    );
  }
}

/** An SQL condition (for `alias`, a row of the kind's table) true for rows the caller can see. */
export function visibleWhere(kind: ResourceKind, alias: string, user: AuthUser): { sql: string; params: unknown[] } {
  const active = "role IN ('member', 'admin')";
  return {
    sql: `(${alias}.owner_user_id = ?
      OR ${alias}.owner_group_id IN (SELECT group_id FROM memberships WHERE user_id = ? AND ${active})
      OR ${alias}.id IN (SELECT sh.resource_id FROM shares sh JOIN memberships mm ON mm.group_id = sh.group_id
                         WHERE sh.kind = ? AND mm.user_id = ? AND mm.${active}))`,
    params: [user.id, user.id, kind, user.id],
  };
}

/** The ownership and capability fields every resource body carries. */
export function accessFields(
  db: Db,
  kind: ResourceKind,
  id: number,
  user: AuthUser,
): { owner: string | null; group_owner: string | null; can_edit: boolean; can_share: boolean } {
  const owners = ownersOf(db, kind, id);
  const access = owners ? accessTo(db, kind, id, user) : null;
  const owner =
    owners?.owner_user_id != null
      ? ((
          db.prepare('SELECT username FROM users WHERE id = ?').get(owners.owner_user_id) as
            { username: string } | undefined
        )?.username ?? null)
      : null;
  const groupOwner =
    owners?.owner_group_id != null
      ? ((db.prepare('SELECT slug FROM groups WHERE id = ?').get(owners.owner_group_id) as { slug: string } | undefined)
          ?.slug ?? null)
      : null;
  return { owner, group_owner: groupOwner, can_edit: satisfies(access, 'edit'), can_share: satisfies(access, 'share') };
}

/**
 * The owner columns for a new resource: the caller, or the named group when the caller may
 * create in it (an admin, or a member with edit or share). Unknown or foreign groups are a
 * VALIDATION_ERROR on `group_owner` (a group the caller is not in is invisible to them).
 */
export function ownerFor(
  db: Db,
  user: AuthUser,
  groupSlug?: string | null,
): { owner_user_id: number | null; owner_group_id: number | null } {
  if (groupSlug === undefined || groupSlug === null) return { owner_user_id: user.id, owner_group_id: null };
  const group = db.prepare('SELECT id FROM groups WHERE slug = ?').get(groupSlug) as { id: number } | undefined;
  const m = group ? activeMembership(db, group.id, user.id) : undefined;
  if (!group || !m) throw errors.validation({ group_owner: 'no such group among yours' });
  if (m.role !== 'admin' && !satisfies(m.permission, 'edit')) {
    throw errors.permissionDenied(`Your permission in group ${groupSlug} is view: you cannot create resources in it`);
  }
  return { owner_user_id: null, owner_group_id: group.id };
}

/** Removes every share of a resource; call it in the same transaction that deletes the resource. */
export function dropShares(db: Db, kind: ResourceKind, id: number): void {
  db.prepare('DELETE FROM shares WHERE kind = ? AND resource_id = ?').run(kind, id);
}
