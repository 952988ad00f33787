/**
 * The queries the policy decides on: a resource's owners, a user's active memberships and the
 * shares that reach them, and the SQL condition for the rows a user can see.
 */
import type { Permission } from '../../shared/service-api/groups';
import type { Db } from '../db/database';
import { prepared } from '../db/statements';

export interface Owners {
  owner_user_id: number | null;
  owner_group_id: number | null;
}

/** The owner columns of row `id` of `table`, or undefined when there is no such row. */
export function ownersIn(db: Db, table: string, id: number): Owners | undefined {
  return prepared(db, `SELECT owner_user_id, owner_group_id FROM ${table} WHERE id = ?`).get(id) as Owners | undefined;
}

export interface ActiveMembership {
  role: 'member' | 'admin';
  permission: Permission;
}

/** A user's membership in a group when it is accepted (member or admin), else undefined. */
export function activeMembership(db: Db, groupId: number, userId: number): ActiveMembership | undefined {
  return db
    .prepare(
      "SELECT role, permission FROM memberships WHERE group_id = ? AND user_id = ? AND role IN ('member', 'admin')",
    )
    .get(groupId, userId) as ActiveMembership | undefined;
}

export interface ShareReach {
  share: Permission;
  role: string;
  member: Permission;
}

/** Each share of a resource with a group the user is an active member of, with the user's standing there. */
export function sharesReaching(db: Db, kind: string, id: number, userId: number): ShareReach[] {
  return db
    .prepare(
      `SELECT s.permission AS share, m.role AS role, m.permission AS member
       FROM shares s JOIN memberships m ON m.group_id = s.group_id
       WHERE s.kind = ? AND s.resource_id = ? AND m.user_id = ? AND m.role IN ('member', 'admin')`,
    )
    .all(kind, id, userId) as ShareReach[];
}

/** An SQL condition (for `alias`, a row of the kind's table) true for rows the user can see. */
export function visibleWhere(kind: string, alias: string, user: { id: number }): { sql: string; params: unknown[] } {
  const active = "role IN ('member', 'admin')";
  return {
    sql: `(${alias}.owner_user_id = ?
      OR ${alias}.owner_group_id IN (SELECT group_id FROM memberships WHERE user_id = ? AND ${active})
      OR ${alias}.id IN (SELECT sh.resource_id FROM shares sh JOIN memberships mm ON mm.group_id = sh.group_id
                         WHERE sh.kind = ? AND mm.user_id = ? AND mm.${active}))`,
    params: [user.id, user.id, kind, user.id],
  };
}

/** A username by user id, or null. */
export function usernameOf(db: Db, userId: number): string | null {
  const row = prepared(db, 'SELECT username FROM users WHERE id = ?').get(userId) as { username: string } | undefined;
  return row?.username ?? null;
}

/** A group's slug by id, or null. */
export function groupSlugOf(db: Db, groupId: number): string | null {
  const row = db.prepare('SELECT slug FROM groups WHERE id = ?').get(groupId) as { slug: string } | undefined;
  return row?.slug ?? null;
}

/** A group's id by slug, or undefined. */
export function groupIdBySlug(db: Db, slug: string): number | undefined {
  return (db.prepare('SELECT id FROM groups WHERE slug = ?').get(slug) as { id: number } | undefined)?.id;
}

/** Removes every share of a resource; call it in the same transaction that deletes the resource. */
export function dropShares(db: Db, kind: string, id: number): void {
  db.prepare('DELETE FROM shares WHERE kind = ? AND resource_id = ?').run(kind, id);
}

/** True when the database has a table of that name. */
export function tableExists(db: Db, table: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
}
