/** Sharing use cases: share a resource with a group, stop sharing it. */
import type { Permission } from '../../shared/service-api/groups';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, requireAccess } from '../policy/policy';
import type { ResourceKind } from '../policy/resource-kinds';
import { deleteShare, memberGroupBySlug, shareMaker, sharesOf, upsertShare } from './shares.store';

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
  // Sharing again at the same level changes nothing (with_data may take more along).
  const current = sharesOf(ctx.db, kind, id).find((s) => s.group === group.slug)?.permission;
  if (current !== permission) requireMayChange(ctx, user, kind, id, slug, 'change');
  upsertShare(ctx.db, kind, id, group.id, permission, user.id);
  audit(ctx, user, 'shared', { kind, id }, { group: group.slug, permission });
}

/** Stops sharing a resource the caller may share with a group; NOT_FOUND when it was not shared. */
export function unshareResource(ctx: ServiceContext, user: AuthUser, kind: ResourceKind, id: number, slug: string) {
  requireAccess(ctx.db, kind, id, user, 'share');
  requireMayChange(ctx, user, kind, id, slug, 'remove');
  if (!deleteShare(ctx.db, kind, id, slug)) throw errors.notFound(`Share with group ${slug}`);
  audit(ctx, user, 'unshared', { kind, id }, { group: slug });
}

/**
 * An existing share may be changed or removed by whoever has full control, and by a `share`
 * holder only when they made it: a member with `share` once deleted the owner's own share, and
 * could still lower it to `view` (or raise it) by sharing again with the same group.
 */
function requireMayChange(
  ctx: ServiceContext,
  user: AuthUser,
  kind: ResourceKind,
  id: number,
  slug: string,
  verb: 'change' | 'remove',
): void {
  const maker = shareMaker(ctx.db, kind, id, slug);
  if (maker === undefined || maker === user.id) return;
  if (accessTo(ctx.db, kind, id, user) === 'full') return;
  throw errors.permissionDenied(
    `The share with group ${slug} was made by someone else: only they or the owner can ${verb} it`,
  );
}
