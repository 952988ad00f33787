/** Queries over shares: who a resource is shared with, who could have access, and changes. */
import type { Permission } from '../../shared/service-api/groups';
import type { ShareEntry } from '../../shared/service-api/shares';
import type { Db } from '../db/database';

/** The groups a resource is shared with, by slug. */
export function sharesOf(db: Db, kind: string, id: number): ShareEntry[] {
  return db
    .prepare(
      `SELECT g.slug AS "group", g.name, s.permission FROM shares s JOIN groups g ON g.id = s.group_id
       WHERE s.kind = ? AND s.resource_id = ? ORDER BY g.slug`,
    )
    .all(kind, id) as ShareEntry[];
}

export interface CandidateRow {
  id: number;
  username: string;
  name: string;
  email: string;
}

/**
 * Every enabled user who could have access to row `id` of `table`: its owner, the members of
 * its owning group and of the groups it is shared with; by username.
 */
export function accessCandidates(db: Db, kind: string, table: string, id: number): CandidateRow[] {
  return db
    .prepare(
      `SELECT id, username, name, email FROM users WHERE disabled = 0 AND (
         id = (SELECT owner_user_id FROM ${table} WHERE id = ?)
         OR id IN (SELECT user_id FROM memberships WHERE role <> 'invited' AND (
           group_id = (SELECT owner_group_id FROM ${table} WHERE id = ?)
           OR group_id IN (SELECT group_id FROM shares WHERE kind = ? AND resource_id = ?))))
       ORDER BY username`,
    )
    .all(id, id, kind, id) as CandidateRow[];
}

/** A group the user is a member or admin of, by slug, or undefined. */
export function memberGroupBySlug(db: Db, slug: string, userId: number): { id: number; slug: string } | undefined {
  return db
    .prepare(
      `SELECT g.id, g.slug FROM groups g JOIN memberships m ON m.group_id = g.id
       WHERE g.slug = ? AND m.user_id = ? AND m.role IN ('member', 'admin')`,
    )
    .get(slug, userId) as { id: number; slug: string } | undefined;
}

/** Shares a resource with a group, or changes the permission of an existing share (its maker stays). */
export function upsertShare(
  db: Db,
  kind: string,
  id: number,
  groupId: number,
  permission: Permission,
  sharedBy: number,
): void {
  db.prepare(
    `INSERT INTO shares (kind, resource_id, group_id, permission, shared_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (kind, resource_id, group_id) DO UPDATE SET permission = excluded.permission`,
  ).run(kind, id, groupId, permission, sharedBy);
}

/** Who made the share with the group of that slug: undefined when there is none, null when unknown. */
export function shareMaker(db: Db, kind: string, id: number, slug: string): number | null | undefined {
  const row = db
    .prepare(
      `SELECT s.shared_by FROM shares s JOIN groups g ON g.id = s.group_id
        WHERE s.kind = ? AND s.resource_id = ? AND g.slug = ?`,
    )
    .get(kind, id, slug) as { shared_by: number | null } | undefined;
  return row === undefined ? undefined : row.shared_by;
}

/** Stops sharing a resource with the group of that slug; returns whether there was such a share. */
export function deleteShare(db: Db, kind: string, id: number, slug: string): boolean {
  return (
    db
      .prepare(
        'DELETE FROM shares WHERE kind = ? AND resource_id = ? AND group_id = (SELECT id FROM groups WHERE slug = ?)',
      )
      .run(kind, id, slug).changes > 0
  );
}
