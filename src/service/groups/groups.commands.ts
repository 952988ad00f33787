/**
 * Group use cases and the membership state machine (spec: States, Group membership):
 * invite (admin) -> invited; accept/decline (invitee); promote member -> admin and demote
 * admin -> member (admin); remove (admin) and leave (member or admin). The last admin can
 * neither leave nor be demoted or removed: 409 LAST_ADMIN.
 */
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import type { AuthUser } from '../identity/authenticate';
import { userByUsername } from '../identity/users.store';
import type { Permission } from '../policy/policy';
import { RESOURCE_KIND_NAMES, RESOURCE_KINDS } from '../policy/resource-kinds';
import { adminCount, groupBySlug, membershipOf, type GroupRow, type MembershipRow } from './groups.store';
import { inviteEmails, type InviteOutcome } from './invitations';
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
    const created = now(ctx);
    const id = Number(
      ctx.db
        .prepare('INSERT INTO groups (slug, name, description, created) VALUES (?, ?, ?, ?)')
        .run(slug, trimmed, description, created).lastInsertRowid,
    );
    ctx.db
      .prepare(
        `INSERT INTO memberships (group_id, user_id, role, permission, invited_by, created)
         VALUES (?, ?, 'admin', 'share', NULL, ?)`,
      )
      .run(id, user.id, created);
    audit(ctx, user, 'created', { kind: 'group', id, name: slug });
    return groupBySlug(ctx.db, slug)!;
  })();
}

/** Updates name and description (the slug never changes, so links stay valid). */
export function updateGroup(
  ctx: ServiceContext,
  access: GroupAccess,
  changes: { name?: string; description?: string },
): GroupRow {
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw errors.validation({ name: 'must not be blank' });
  ctx.db
    .prepare('UPDATE groups SET name = ?, description = ? WHERE id = ?')
    .run(name ?? access.group.name, changes.description ?? access.group.description, access.group.id);
  return groupBySlug(ctx.db, access.group.slug)!;
}

/** Every table with owner columns: the resource kinds and anything else owned (lanes and the like). */
function ownedTables(ctx: ServiceContext): string[] {
  const rows = ctx.db
    .prepare(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table'
       AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'owner_group_id')
       AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'owner_user_id')`,
    )
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

/**
 * Deletes a group. Its shares go with it; everything it owns (in any table with owner
 * columns) is handed to the admin who deletes it, so nothing becomes ownerless.
 */
export function deleteGroup(ctx: ServiceContext, access: GroupAccess, user: AuthUser) {
  return ctx.db.transaction(() => {
    const handed: Record<string, number> = {};
    for (const table of ownedTables(ctx)) {
      const kind = RESOURCE_KIND_NAMES.find((k) => RESOURCE_KINDS[k].table === table) ?? table;
      const changes = ctx.db
        .prepare(`UPDATE "${table}" SET owner_user_id = ?, owner_group_id = NULL WHERE owner_group_id = ?`)
        .run(user.id, access.group.id).changes;
      if (changes) handed[kind] = changes;
    }
    ctx.db.prepare('DELETE FROM shares WHERE group_id = ?').run(access.group.id);
    ctx.db.prepare('DELETE FROM groups WHERE id = ?').run(access.group.id);
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
  ctx.db
    .prepare("UPDATE memberships SET role = 'member' WHERE group_id = ? AND user_id = ?")
    .run(access.group.id, access.mine.user_id);
}

/** The invitee declines: the invitation is removed. */
export function decline(ctx: ServiceContext, access: GroupAccess): void {
  if (access.mine.role !== 'invited') throw conflict('You are a member of this group: leave it instead');
  ctx.db
    .prepare('DELETE FROM memberships WHERE group_id = ? AND user_id = ?')
    .run(access.group.id, access.mine.user_id);
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

/** Admin removes a member, an admin (not the last) or an open invitation. */
export function remove(ctx: ServiceContext, access: GroupAccess, username: string): void {
  ctx.db.transaction(() => {
    const m = target(ctx, access, username);
    if (m.role === 'admin') refuseLastAdmin(ctx, access.group.id, 'be removed');
    ctx.db.prepare('DELETE FROM memberships WHERE group_id = ? AND user_id = ?').run(m.group_id, m.user_id);
  })();
}

/** Admin withdraws an invitation sent to an address that has no account yet. */
export function revokePendingInvitation(ctx: ServiceContext, access: GroupAccess, email: string): void {
  const removed = ctx.db
    .prepare('DELETE FROM pending_invitations WHERE group_id = ? AND email = ?')
    .run(access.group.id, email).changes;
  if (!removed) throw new ApiError('NOT_FOUND', `No pending invitation for ${email} in group ${access.group.slug}`);
}

/** Admin promotes a member to admin. */
export function promote(ctx: ServiceContext, access: GroupAccess, username: string): void {
  const m = target(ctx, access, username);
  if (m.role === 'invited') throw conflict(`${username} has not accepted the invitation yet`);
  if (m.role === 'admin') throw conflict(`${username} is already an admin`);
  ctx.db.prepare("UPDATE memberships SET role = 'admin' WHERE group_id = ? AND user_id = ?").run(m.group_id, m.user_id);
}

/** Admin demotes an admin (not the last) to member. */
export function demote(ctx: ServiceContext, access: GroupAccess, username: string): void {
  ctx.db.transaction(() => {
    const m = target(ctx, access, username);
    if (m.role !== 'admin') throw conflict(`${username} is not an admin`);
    refuseLastAdmin(ctx, access.group.id, 'be demoted');
    ctx.db
      .prepare("UPDATE memberships SET role = 'member' WHERE group_id = ? AND user_id = ?")
      .run(m.group_id, m.user_id);
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
  ctx.db
    .prepare('UPDATE memberships SET permission = ? WHERE group_id = ? AND user_id = ?')
    .run(permission, m.group_id, m.user_id);
}

/** A member or admin (not the last admin) leaves. */
export function leave(ctx: ServiceContext, access: GroupAccess): void {
  ctx.db.transaction(() => {
    if (access.mine.role === 'invited')
      throw conflict('You have not joined this group: decline the invitation instead');
    if (access.mine.role === 'admin') refuseLastAdmin(ctx, access.group.id, 'leave');
    ctx.db
      .prepare('DELETE FROM memberships WHERE group_id = ? AND user_id = ?')
      .run(access.group.id, access.mine.user_id);
  })();
}
