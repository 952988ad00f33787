/**
 * The one place that decides who may do what to an owned resource (API.md, "Groups, ownership
 * and sharing"). Its owner, and every admin of its owning group, have full control. A member
 * of the owning group has the permission the group gave them. Through a share, access is the
 * lower of the share's permission and the member's permission in that group (an admin of the
 * group counts as share). Invitations not yet accepted grant nothing. The best path wins.
 * Service administrators get no implicit access to other people's resources.
 */
import type { Permission } from '../../shared/service-api/groups';
import type { Access as GrantedAccess } from '../../shared/service-api/shares';
import type { Db } from '../db/database';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import {
  activeMembership,
  groupIdBySlug,
  groupSlugOf,
  ownersIn,
  sharesReaching,
  usernameOf,
  type Owners,
} from './policy.store';
import { kindTableExists, RESOURCE_KINDS, type ResourceKind } from './resource-kinds';

export { dropShares, visibleWhere } from './policy.store';
export type { Permission };
/** A caller's access to a resource; null when it is invisible or does not exist. */
export type Access = GrantedAccess | null;

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

function ownersOf(db: Db, kind: ResourceKind, id: number): Owners | undefined {
  if (!Number.isSafeInteger(id) || !kindTableExists(db, kind)) return undefined;
  return ownersIn(db, RESOURCE_KINDS[kind].table, id);
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
  for (const row of sharesReaching(db, kind, id, user.id)) {
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

/** The ownership and capability fields every resource body carries. */
export function accessFields(
  db: Db,
  kind: ResourceKind,
  id: number,
  user: AuthUser,
): { owner: string | null; group_owner: string | null; can_edit: boolean; can_share: boolean } {
  const owners = ownersOf(db, kind, id);
  const access = owners ? accessTo(db, kind, id, user) : null;
  const owner = owners?.owner_user_id != null ? usernameOf(db, owners.owner_user_id) : null;
  const groupOwner = owners?.owner_group_id != null ? groupSlugOf(db, owners.owner_group_id) : null;
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
  const groupId = groupIdBySlug(db, groupSlug);
  const m = groupId !== undefined ? activeMembership(db, groupId, user.id) : undefined;
  if (groupId === undefined || !m) throw errors.validation({ group_owner: 'no such group among yours' });
  if (m.role !== 'admin' && !satisfies(m.permission, 'edit')) {
    throw errors.permissionDenied(`Your permission in group ${groupSlug} is view: you cannot create resources in it`);
  }
  return { owner_user_id: null, owner_group_id: groupId };
}
