/** Who has access to a resource: its owner, its shares, and every user's effective access. */
import type { Db } from '../db/database';
import type { AuthUser } from '../identity/authenticate';
import { accessFields, accessTo } from './policy';
import { RESOURCE_KINDS, type ResourceKind } from './resource-kinds';

export const permissionsResponseSchema = {
  type: 'object',
  required: ['kind', 'id', 'owner', 'group_owner', 'can_edit', 'can_share', 'shares', 'users'],
  properties: {
    kind: { type: 'string' },
    id: { type: 'integer' },
    owner: { type: ['string', 'null'] },
    group_owner: { type: ['string', 'null'] },
    can_edit: { type: 'boolean' },
    can_share: { type: 'boolean' },
    shares: {
      type: 'array',
      items: {
        type: 'object',
        properties: { group: { type: 'string' }, name: { type: 'string' }, permission: { type: 'string' } },
      },
    },
    users: {
      type: 'array',
      items: {
        type: 'object',
        properties: { username: { type: 'string' }, name: { type: 'string' }, access: { type: 'string' } },
      },
    },
  },
} as const;

/** The permissions body of one resource, as the caller sees it. */
export function permissionsOf(db: Db, kind: ResourceKind, id: number, user: AuthUser) {
  const shares = db
    .prepare(
      `SELECT g.slug AS "group", g.name, s.permission FROM shares s JOIN groups g ON g.id = s.group_id
       WHERE s.kind = ? AND s.resource_id = ? ORDER BY g.slug`,
    )
    .all(kind, id) as Array<{ group: string; name: string; permission: string }>;
  const table = RESOURCE_KINDS[kind].table;
  // Everyone who could have access: the owner, members of the owning group and of share groups.
  const candidates = db
    .prepare(
      `SELECT id, username, name, email FROM users WHERE disabled = 0 AND (
         id = (SELECT owner_user_id FROM ${table} WHERE id = ?)
         OR id IN (SELECT user_id FROM memberships WHERE role <> 'invited' AND (
           group_id = (SELECT owner_group_id FROM ${table} WHERE id = ?)
           OR group_id IN (SELECT group_id FROM shares WHERE kind = ? AND resource_id = ?))))
       ORDER BY username`,
    )
    .all(id, id, kind, id) as Array<{ id: number; username: string; name: string; email: string }>;
  const users = candidates
    .map((u) => ({
      username: u.username,
      name: u.name,
      access: accessTo(db, kind, id, {
        id: u.id,
        username: u.username,
        name: u.name,
        email: u.email,
        isAdmin: false,
        canRunPipelines: false,
      }),
    }))
    .filter((u) => u.access !== null);
  return { kind, id, ...accessFields(db, kind, id, user), shares, users };
}
