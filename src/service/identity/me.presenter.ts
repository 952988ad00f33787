/** The body of GET /api/me: the user, their groups with roles, and their open invitations. */
import type { Me } from '../../shared/service-api/identity';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { membershipsOfUser } from '../auth/users.store';

/** Builds the /api/me body for a user. */
export function meBody(ctx: ServiceContext, user: AuthUser): Me {
  const rows = membershipsOfUser(ctx.db, user.id);
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
