/** The JSON of a group: its fields, the caller's role, its members and (for admins) pending invitations. */
import type { Db } from '../db/database';
import type { GroupRow, MembershipRow } from './groups.store';

const memberSchema = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    permission: { type: 'string' },
  },
};

export const groupSummarySchema = {
  type: 'object',
  required: ['slug', 'name', 'description', 'created', 'role', 'permission'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    created: { type: 'string' },
    role: { type: 'string', enum: ['invited', 'member', 'admin'] },
    permission: { type: 'string', enum: ['view', 'edit', 'share'] },
    member_count: { type: 'integer' },
  },
} as const;

export const groupDetailSchema = {
  type: 'object',
  required: [...groupSummarySchema.required, 'members'],
  properties: {
    ...groupSummarySchema.properties,
    members: { type: 'array', items: memberSchema },
    pending_invitations: {
      type: 'array',
      items: { type: 'object', properties: { email: { type: 'string' }, permission: { type: 'string' } } },
    },
  },
} as const;

/** The group as the caller sees it in a list. */
export function presentGroupSummary(db: Db, group: GroupRow, mine: MembershipRow) {
  const count = (
    db.prepare("SELECT count(*) AS n FROM memberships WHERE group_id = ? AND role <> 'invited'").get(group.id) as {
      n: number;
    }
  ).n;
  return {
    slug: group.slug,
    name: group.name,
    description: group.description,
    created: group.created,
    role: mine.role,
    permission: mine.permission,
    member_count: count,
  };
}

/** The group's details as the caller sees them. */
export function presentGroup(db: Db, group: GroupRow, mine: MembershipRow) {
  const members = db
    .prepare(
      `SELECT u.username, u.name, u.email, m.role, m.permission FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.group_id = ? ORDER BY CASE m.role WHEN 'admin' THEN 0 WHEN 'member' THEN 1 ELSE 2 END, u.username`,
    )
    .all(group.id) as Array<{ username: string; name: string; email: string; role: string; permission: string }>;
  const body: Record<string, unknown> = { ...presentGroupSummary(db, group, mine), members };
  if (mine.role === 'admin') {
    body.pending_invitations = db
      .prepare('SELECT email, permission FROM pending_invitations WHERE group_id = ? ORDER BY email')
      .all(group.id);
  }
  return body;
}
