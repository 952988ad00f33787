/**
 * Group use cases and the membership state machine (spec: States, Group membership):
 * invite (admin) -> invited; accept/decline (invitee); promote member -> admin and demote
 * admin -> member (admin); remove (admin) and leave (member or admin). The last admin can
 * neither leave nor be demoted or removed: 409 LAST_ADMIN.
 */
import type { GroupDeleted, InviteOutcome, Permission } from '../../shared/service-api/groups';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { userById, userByUsername } from '../auth/users.store';
import { RESOURCE_KIND_NAMES, RESOURCE_KINDS } from '../policy/resource-kinds';
import {
  adminCount,
  deleteGroupRow,
  deleteMembership,
  deletePendingInvitation,
  groupBySlug,
  handOverOwned,
  insertGroup,
  membershipOf,
  ownedTables,
  setMembershipPermission,
  setRole,
  updateGroupRow,
  type GroupRow,
  type MembershipRow,
} from './groups.store';
import { inviteEmails } from './invitations.commands';
import { uniqueSlug } from './slug';

export interface GroupAccess {
  group: GroupRow;
  mine: MembershipRow;
}

/** The group and the caller's membership; NOT_FOUND when the caller has none (groups are private). */
export function loadGroup(ctx: ServiceContext, slug: string, user: AuthUser): GroupAccess {
  const group = groupBySlug(ctx.db, slug);
  const mine = group ? membershipOf(ctx.db, group.id, user.id) : undefined;
  if (!group || !mine) throw errors.notFound('Group');
  return { group, mine };
}

/** Like loadGroup, and PERMISSION_DENIED unless the caller is an admin of the group. */
export function loadGroupAsAdmin(ctx: ServiceContext, slug: string, user: AuthUser): GroupAccess {
  const access = loadGroup(ctx, slug, user);
  if (access.mine.role !== 'admin') throw errors.permissionDenied(`Only an admin of group ${slug} can do this`);
  return access;
}

function now(ctx: ServiceContext): string {
  return new Date(ctx.clock.now()).toISOString();
}

/** Creates a group with a fresh slug; the creator becomes its admin. */
export function createGroup(ctx: ServiceContext, user: AuthUser, name: string, description = ''): GroupRow {
  const trimmed = name.trim();
  if (!trimmed) throw errors.validation({ name: 'must not be blank' });
  return ctx.db.transaction(() => {
    const slug = uniqueSlug(ctx.db, trimmed);
    const id = insertGroup(ctx.db, { slug, name: trimmed, description, created: now(ctx) }, user.id);
    audit(ctx, user, 'created', { kind: 'group', id, name: slug });
    return groupBySlug(ctx.db, slug)!;
  })();
}

/** Updates name and description (the slug never changes, so links stay valid). */
export function updateGroup(
  ctx: ServiceContext,
  access: GroupAccess,
  changes: { name?: string; description?: string },
  user: AuthUser,
): GroupRow {
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw errors.validation({ name: 'must not be blank' });
  ctx.db.transaction(() => {
    updateGroupRow(ctx.db, access.group.id, name ?? access.group.name, changes.description ?? access.group.description);
    if (name !== undefined && name !== access.group.name) {
      audit(
        ctx,
        user,
        'updated',
        { kind: 'group', id: access.group.id, name },
        { name: { from: access.group.name, to: name } },
      );
    }
  })();
  return groupBySlug(ctx.db, access.group.slug)!;
}

/**
 * Deletes a group. Its shares go with it; everything it owns (in any table with owner
 * columns) is handed to the admin who deletes it, so nothing becomes ownerless.
 */
export function deleteGroup(ctx: ServiceContext, access: GroupAccess, user: AuthUser): GroupDeleted {
  return ctx.db.transaction(() => {
    const handed: Record<string, number> = {};
    for (const table of ownedTables(ctx.db)) {
      const kind = RESOURCE_KIND_NAMES.find((k) => RESOURCE_KINDS[k].table === table) ?? table;
      const changes = handOverOwned(ctx.db, table, access.group.id, user.id);
      if (changes) handed[kind] = changes;
    }
    deleteGroupRow(ctx.db, access.group.id);
    audit(
      ctx,
      user,
      'deleted',
      { kind: 'group', id: access.group.id, name: access.group.slug },
      { handed_over: handed },
    );
    return { deleted: access.group.slug, handed_over_to: user.username, handed_over: handed };
  })();
}

/** Invites addresses at an initial permission (admin only). */
export function invite(
  ctx: ServiceContext,
  access: GroupAccess,
  user: AuthUser,
  emails: string[],
  permission: Permission,
): InviteOutcome {
  return inviteEmails(ctx, access.group, emails, permission, user);
}

function conflict(message: string): ApiError {
  return new ApiError('CONFLICT', message);
}

/** The invitee accepts: invited -> member. */
export function accept(ctx: ServiceContext, access: GroupAccess): void {
  if (access.mine.role !== 'invited') throw conflict('You are already a member of this group');
  setRole(ctx.db, access.group.id, access.mine.user_id, 'member');
}

/** The invitee declines: the invitation is removed. */
export function decline(ctx: ServiceContext, access: GroupAccess): void {
  if (access.mine.role !== 'invited') throw conflict('You are a member of this group: leave it instead');
  deleteMembership(ctx.db, access.group.id, access.mine.user_id);
}

function target(ctx: ServiceContext, access: GroupAccess, username: string): MembershipRow {
  const user = userByUsername(ctx.db, username);
  const m = user ? membershipOf(ctx.db, access.group.id, user.id) : undefined;
  if (!m) throw new ApiError('NOT_FOUND', `${username} is not in group ${access.group.slug}`);
  return m;
}

function refuseLastAdmin(ctx: ServiceContext, groupId: number, what: string): void {
  if (adminCount(ctx.db, groupId) <= 1) {
    throw new ApiError(
      'LAST_ADMIN',
      `The last admin of a group cannot ${what}: promote another member first, or delete the group`,
    );
  }
}

/** Admin removes a member, another admin (not the last) or an open invitation. */
export function remove(ctx: ServiceContext, access: GroupAccess, username: string): void {
  ctx.db.transaction(() => {
    const m = target(ctx, access, username);
    if (m.role === 'admin') refuseLastAdmin(ctx, access.group.id, 'be removed');
    // Removing oneself is leaving: its answer cannot be the group's details, which the caller
    // would no longer see (this was a 500).
    if (m.user_id === access.mine.user_id) throw conflict('You cannot remove yourself: leave the group instead');
    deleteMembership(ctx.db, m.group_id, m.user_id);
    auditMembership(ctx, access, { member: username, removed: true, role: m.role });
  })();
}

/** Audits a change of someone's rights in the group, by the admin who made it. */
function auditMembership(ctx: ServiceContext, access: GroupAccess, details: Record<string, unknown>): void {
  const by = userById(ctx.db, access.mine.user_id);
  const actor = by ? { id: by.id, username: by.username } : null;
  audit(ctx, actor, 'updated', { kind: 'group', id: access.group.id, name: access.group.name }, details);
}

/** Admin withdraws an invitation sent to an address that has no account yet. */
export function revokePendingInvitation(ctx: ServiceContext, access: GroupAccess, email: string): void {
  if (!deletePendingInvitation(ctx.db, access.group.id, email))
    throw new ApiError('NOT_FOUND', `No pending invitation for ${email} in group ${access.group.slug}`);
}

/** Admin promotes a member to admin. */
export function promote(ctx: ServiceContext, access: GroupAccess, username: string): void {
  const m = target(ctx, access, username);
  if (m.role === 'invited') throw conflict(`${username} has not accepted the invitation yet`);
  if (m.role === 'admin') throw conflict(`${username} is already an admin`);
  ctx.db.transaction(() => {
    setRole(ctx.db, m.group_id, m.user_id, 'admin');
    auditMembership(ctx, access, { member: username, role: { from: m.role, to: 'admin' } });
  })();
}

/** Admin demotes an admin (not the last) to member. */
export function demote(ctx: ServiceContext, access: GroupAccess, username: string): void {
  ctx.db.transaction(() => {
    const m = target(ctx, access, username);
    if (m.role !== 'admin') throw conflict(`${username} is not an admin`);
    refuseLastAdmin(ctx, access.group.id, 'be demoted');
    setRole(ctx.db, m.group_id, m.user_id, 'member');
    auditMembership(ctx, access, { member: username, role: { from: 'admin', to: 'member' } });
  })();
}

/** Admin changes the permission a member (or invitee) holds in the group. */
export function setPermission(
  ctx: ServiceContext,
  access: GroupAccess,
  username: string,
  permission: Permission,
): void {
  const m = target(ctx, access, username);
  ctx.db.transaction(() => {
    setMembershipPermission(ctx.db, m.group_id, m.user_id, permission);
    auditMembership(ctx, access, { member: username, permission: { from: m.permission, to: permission } });
  })();
}

/** A member or admin (not the last admin) leaves. */
export function leave(ctx: ServiceContext, access: GroupAccess): void {
  ctx.db.transaction(() => {
    if (access.mine.role === 'invited')
      throw conflict('You have not joined this group: decline the invitation instead');
    if (access.mine.role === 'admin') refuseLastAdmin(ctx, access.group.id, 'leave');
    deleteMembership(ctx.db, access.group.id, access.mine.user_id);
  })();
}
