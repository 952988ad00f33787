/** The body of GET /api/me: the user, their groups with roles, and their open invitations. */
import type { ServiceContext } from '../context';
import type { AuthUser } from './authenticate';
import { userIdentityProperties } from './user-schemas';

export const meResponseSchema = {
  type: 'object',
  required: ['id', 'username', 'email', 'name', 'is_admin', 'can_run_pipelines', 'groups', 'invitations'],
  properties: {
    ...userIdentityProperties,
    groups: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          slug: { type: 'string' },
          name: { type: 'string' },
          role: { type: 'string' },
          permission: { type: 'string' },
        },
      },
    },
    invitations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          group: { type: 'string' },
          group_name: { type: 'string' },
          invited_by: { type: ['string', 'null'] },
          permission: { type: 'string' },
        },
      },
    },
  },
} as const;

/** Builds the /api/me body for a user. */
export function meBody(ctx: ServiceContext, user: AuthUser) {
  const rows = ctx.db
    .prepare(
      `SELECT g.slug, g.name, m.role, m.permission, u.username AS invited_by
       FROM memberships m JOIN groups g ON g.id = m.group_id LEFT JOIN users u ON u.id = m.invited_by
       WHERE m.user_id = ? ORDER BY g.name, g.slug`,
    )
    .all(user.id) as Array<{ slug: string; name: string; role: string; permission: string; invited_by: string | null }>;
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    name: user.name,
    is_admin: user.isAdmin,
    can_run_pipelines: user.canRunPipelines,
    groups: rows
      .filter((r) => r.role !== 'invited')
      .map((r) => ({ slug: r.slug, name: r.name, role: r.role, permission: r.permission })),
    invitations: rows
      .filter((r) => r.role === 'invited')
      .map((r) => ({ group: r.slug, group_name: r.name, invited_by: r.invited_by, permission: r.permission })),
  };
}
