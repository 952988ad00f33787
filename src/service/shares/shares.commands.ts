/** Sharing use cases: share a resource with a group, stop sharing it. */
import type { Permission } from '../../shared/service-api/groups';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import type { ResourceKind } from '../policy/resource-kinds';
import { deleteShare, memberGroupBySlug, upsertShare } from './shares.store';

/** Shares a resource the caller may share with one of the caller's groups (or changes its level). */
export function shareResource(
  ctx: ServiceContext,
  user: AuthUser,
  kind: ResourceKind,
  id: number,
  slug: string,
  permission: Permission,
): void {
  requireAccess(ctx.db, kind, id, user, 'share');
  // The target group must exist and the caller must belong to it.
  const group = memberGroupBySlug(ctx.db, slug, user.id);
  if (!group) throw errors.validation({ group: 'no such group among yours' });
  upsertShare(ctx.db, kind, id, group.id, permission);
  audit(ctx, user, 'shared', { kind, id }, { group: group.slug, permission });
}

/** Stops sharing a resource the caller may share with a group; NOT_FOUND when it was not shared. */
export function unshareResource(ctx: ServiceContext, user: AuthUser, kind: ResourceKind, id: number, slug: string) {
  requireAccess(ctx.db, kind, id, user, 'share');
  if (!deleteShare(ctx.db, kind, id, slug)) throw errors.notFound(`Share with group ${slug}`);
  audit(ctx, user, 'unshared', { kind, id }, { group: slug });
}
