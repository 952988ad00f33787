/**
 * Sharing routes for every owned resource kind: share with a group at view, edit or share;
 * unshare; and list who has access. A kind whose table does not exist yet answers 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser, type AuthUser } from '../identity/authenticate';
import { requireAccess, type Permission } from '../policy/policy';
import { RESOURCE_KIND_NAMES, RESOURCE_KINDS, type ResourceKind } from '../policy/resource-kinds';
import { permissionsOf, permissionsResponseSchema } from '../policy/permissions.presenter';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} as const;

function idOf(request: FastifyRequest): number {
  return (request.params as { id: number }).id;
}

/** The target group of a share: it must exist and the caller must belong to it. */
function shareTarget(ctx: ServiceContext, user: AuthUser, slug: string): { id: number; slug: string } {
  const group = ctx.db
    .prepare(
      `SELECT g.id, g.slug FROM groups g JOIN memberships m ON m.group_id = g.id
       WHERE g.slug = ? AND m.user_id = ? AND m.role IN ('member', 'admin')`,
    )
    .get(slug, user.id) as { id: number; slug: string } | undefined;
  if (!group) throw errors.validation({ group: 'no such group among yours' });
  return group;
}

/** Registers share, unshare and permissions routes for one kind. */
function kindShareRoutes(app: FastifyInstance, ctx: ServiceContext, kind: ResourceKind): void {
  const { segment, label } = RESOURCE_KINDS[kind];
  const tags = ['sharing'];

  app.post(
    `/api/${segment}/:id/share/`,
    {
      schema: {
        summary: `Share a ${label.toLowerCase()} with a group at view, edit or share (needs share permission)`,
        tags,
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['group', 'permission'],
          properties: {
            group: { type: 'string', minLength: 1, maxLength: 64 },
            permission: { type: 'string', enum: ['view', 'edit', 'share'] },
          },
        },
        response: { 200: permissionsResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = idOf(request);
      requireAccess(ctx.db, kind, id, user, 'share');
      const b = request.body as { group: string; permission: Permission };
      const group = shareTarget(ctx, user, b.group);
      ctx.db
        .prepare(
          `INSERT INTO shares (kind, resource_id, group_id, permission) VALUES (?, ?, ?, ?)
           ON CONFLICT (kind, resource_id, group_id) DO UPDATE SET permission = excluded.permission`,
        )
        .run(kind, id, group.id, b.permission);
      audit(ctx, user, 'shared', { kind, id }, { group: group.slug, permission: b.permission });
      return permissionsOf(ctx.db, kind, id, user);
    },
  );

  app.delete(
    `/api/${segment}/:id/share/:slug/`,
    {
      schema: {
        summary: `Stop sharing a ${label.toLowerCase()} with a group (needs share permission)`,
        tags,
        params: {
          ...idParams,
          required: ['id', 'slug'],
          properties: { ...idParams.properties, slug: { type: 'string', maxLength: 64 } },
        },
        response: { 200: permissionsResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = idOf(request);
      requireAccess(ctx.db, kind, id, user, 'share');
      const slug = (request.params as { slug: string }).slug;
      const removed = ctx.db
        .prepare(
          'DELETE FROM shares WHERE kind = ? AND resource_id = ? AND group_id = (SELECT id FROM groups WHERE slug = ?)',
        )
        .run(kind, id, slug).changes;
      if (!removed) throw errors.notFound(`Share with group ${slug}`);
      audit(ctx, user, 'unshared', { kind, id }, { group: slug });
      return permissionsOf(ctx.db, kind, id, user);
    },
  );

  app.get(
    `/api/${segment}/:id/permissions/`,
    {
      schema: {
        summary: `Who has access to a ${label.toLowerCase()}: owner, shares and each user's effective permission`,
        tags,
        params: idParams,
        response: { 200: permissionsResponseSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = idOf(request);
      requireAccess(ctx.db, kind, id, user, 'view');
      return permissionsOf(ctx.db, kind, id, user);
    },
  );
}

/** Registers the sharing routes of every resource kind. */
export function sharesRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const kind of RESOURCE_KIND_NAMES) kindShareRoutes(app, ctx, kind);
}
