/** Queries over groups and memberships. */
import type { Db } from '../db/database';
import type { Permission } from '../policy/policy';

export type Role = 'invited' | 'member' | 'admin';

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
