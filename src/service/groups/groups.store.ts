/** Queries over groups, memberships and pending invitations. */
import type { GroupMember, GroupRole, PendingInvitation, Permission } from '../../shared/service-api/groups';
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';

export type Role = GroupRole;

export interface GroupRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  created: string;
}

export interface MembershipRow {
  group_id: number;
  user_id: number;
  role: Role;
  permission: Permission;
  invited_by: number | null;
  created: string;
}

/** One group by slug, or undefined. */
export function groupBySlug(db: Db, slug: string): GroupRow | undefined {
  return db.prepare('SELECT * FROM groups WHERE slug = ?').get(slug) as GroupRow | undefined;
}

/** A user's membership in a group (any role), or undefined. */
export function membershipOf(db: Db, groupId: number, userId: number): MembershipRow | undefined {
  return db.prepare('SELECT * FROM memberships WHERE group_id = ? AND user_id = ?').get(groupId, userId) as
    MembershipRow | undefined;
}

/** How many admins the group has. */
export function adminCount(db: Db, groupId: number): number {
  return (
    db.prepare("SELECT count(*) AS n FROM memberships WHERE group_id = ? AND role = 'admin'").get(groupId) as {
      n: number;
    }
  ).n;
}

/** How many members and admins (not invitees) the group has. */
export function memberCount(db: Db, groupId: number): number {
  return (
    db.prepare("SELECT count(*) AS n FROM memberships WHERE group_id = ? AND role <> 'invited'").get(groupId) as {
      n: number;
    }
  ).n;
}

/** The group's memberships with their users: admins, then members, then invitees, by username. */
export function membersOf(db: Db, groupId: number): GroupMember[] {
  return db
    .prepare(
      `SELECT u.username, u.name, u.email, m.role, m.permission FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.group_id = ? ORDER BY CASE m.role WHEN 'admin' THEN 0 WHEN 'member' THEN 1 ELSE 2 END, u.username`,
    )
    .all(groupId) as GroupMember[];
}

/** The group's invitations to addresses without an account, by address. */
export function pendingInvitationsOf(db: Db, groupId: number): PendingInvitation[] {
  return db
    .prepare('SELECT email, permission FROM pending_invitations WHERE group_id = ? ORDER BY email')
    .all(groupId) as PendingInvitation[];
}

/** A group with the caller's role and permission in it. */
export type GroupWithMembership = GroupRow & { m_role: Role; m_permission: Permission };

/** One page of the groups a user is a member or admin of, by name. */
export function groupsOfMemberPage(db: Db, userId: number, q: PageQuery): PageOf<GroupWithMembership> {
  return selectPage<GroupWithMembership>(
    db,
    {
      from: 'groups g JOIN memberships m ON m.group_id = g.id',
      where: { sql: "m.user_id = ? AND m.role <> 'invited'", params: [userId] },
      orderBy: 'g.name, g.slug',
      columns: 'g.*, m.role AS m_role, m.permission AS m_permission',
    },
    q,
  );
}

/** The slugs in use that are `base` or start with `base-`. */
export function slugsLike(db: Db, base: string): Set<string> {
  const rows = db.prepare("SELECT slug FROM groups WHERE slug = ? OR slug LIKE ? ESCAPE '\\'").all(base, `${base}-%`);
  return new Set((rows as Array<{ slug: string }>).map((r) => r.slug));
}

/** Inserts a group and makes `adminId` its admin (share permission); returns the group's id. */
export function insertGroup(
  db: Db,
  group: { slug: string; name: string; description: string; created: string },
  adminId: number,
): number {
  const id = Number(
    db
      .prepare('INSERT INTO groups (slug, name, description, created) VALUES (?, ?, ?, ?)')
      .run(group.slug, group.name, group.description, group.created).lastInsertRowid,
  );
  db.prepare(
    `INSERT INTO memberships (group_id, user_id, role, permission, invited_by, created)
     VALUES (?, ?, 'admin', 'share', NULL, ?)`,
  ).run(id, adminId, group.created);
  return id;
}

/** Writes a group's name and description. */
export function updateGroupRow(db: Db, id: number, name: string, description: string): void {
  db.prepare('UPDATE groups SET name = ?, description = ? WHERE id = ?').run(name, description, id);
}

/** Every table with owner columns: the resource kinds and anything else owned (lanes and the like). */
export function ownedTables(db: Db): string[] {
  const rows = db
    .prepare(
      `SELECT m.name FROM sqlite_master m WHERE m.type = 'table'
       AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'owner_group_id')
       AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'owner_user_id')`,
    )
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

/** Hands every row of `table` the group owns to the user; returns how many changed hands. */
export function handOverOwned(db: Db, table: string, groupId: number, userId: number): number {
  return db
    .prepare(`UPDATE "${table}" SET owner_user_id = ?, owner_group_id = NULL WHERE owner_group_id = ?`)
    .run(userId, groupId).changes;
}

/** Deletes a group with its shares (memberships and invitations go by foreign key). */
export function deleteGroupRow(db: Db, groupId: number): void {
  db.prepare('DELETE FROM shares WHERE group_id = ?').run(groupId);
  db.prepare('DELETE FROM groups WHERE id = ?').run(groupId);
}

/** Sets the role of a membership. */
export function setRole(db: Db, groupId: number, userId: number, role: Role): void {
  db.prepare('UPDATE memberships SET role = ? WHERE group_id = ? AND user_id = ?').run(role, groupId, userId);
}

/** Sets the permission of a membership. */
export function setMembershipPermission(db: Db, groupId: number, userId: number, permission: Permission): void {
  db.prepare('UPDATE memberships SET permission = ? WHERE group_id = ? AND user_id = ?').run(
    permission,
    groupId,
    userId,
  );
}

/** Deletes a membership (or invitation). */
export function deleteMembership(db: Db, groupId: number, userId: number): void {
  db.prepare('DELETE FROM memberships WHERE group_id = ? AND user_id = ?').run(groupId, userId);
}

/** Deletes the group's pending invitation of an address; returns whether there was one. */
export function deletePendingInvitation(db: Db, groupId: number, email: string): boolean {
  return db.prepare('DELETE FROM pending_invitations WHERE group_id = ? AND email = ?').run(groupId, email).changes > 0;
}

/** Makes a user an invitee at `permission`, or updates an open invitation's permission and inviter. */
export function upsertInvitation(
  db: Db,
  invitation: { groupId: number; userId: number; permission: Permission; invitedBy: number | null; created: string },
  onConflict: 'update' | 'keep' = 'update',
): void {
  const conflict =
    onConflict === 'update'
      ? 'DO UPDATE SET permission = excluded.permission, invited_by = excluded.invited_by'
      : 'DO NOTHING';
  db.prepare(
    `INSERT INTO memberships (group_id, user_id, role, permission, invited_by, created)
     VALUES (?, ?, 'invited', ?, ?, ?) ON CONFLICT (group_id, user_id) ${conflict}`,
  ).run(invitation.groupId, invitation.userId, invitation.permission, invitation.invitedBy, invitation.created);
}

/** Records (or updates) an invitation of an address that has no account yet. */
export function upsertPendingInvitation(
  db: Db,
  invitation: { groupId: number; email: string; permission: Permission; invitedBy: number; created: string },
): void {
  db.prepare(
    `INSERT INTO pending_invitations (group_id, email, permission, invited_by, created) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (group_id, email) DO UPDATE SET permission = excluded.permission,
       invited_by = excluded.invited_by`,
  ).run(invitation.groupId, invitation.email, invitation.permission, invitation.invitedBy, invitation.created);
}

export interface PendingInvitationRow {
  group_id: number;
  permission: Permission;
  invited_by: number | null;
  created: string;
}

/** Every pending invitation of an address. */
export function pendingInvitationsFor(db: Db, email: string): PendingInvitationRow[] {
  return db
    .prepare('SELECT group_id, permission, invited_by, created FROM pending_invitations WHERE email = ?')
    .all(email) as PendingInvitationRow[];
}

/** Deletes every pending invitation of an address. */
export function deletePendingInvitationsFor(db: Db, email: string): void {
  db.prepare('DELETE FROM pending_invitations WHERE email = ?').run(email);
}
