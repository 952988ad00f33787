/**
 * Sharing routes for every owned resource kind: share with a group at view, edit or share;
 * unshare; and list who has access. A kind whose table does not exist yet answers 404.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../shared/service-api/resource';
import { ResourcePermissions, ShareBody, ShareParams } from '../../shared/service-api/shares';
import type { ServiceContext } from '../context';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { RESOURCE_KIND_NAMES, RESOURCE_KINDS, type ResourceKind } from '../policy/resource-kinds';
import { permissionsOf } from './permissions.presenter';
import { unshareResource } from './shares.commands';
import { shareWithData } from './share-with-data';

/** Registers share, unshare and permissions routes for one kind. */
function kindShareRoutes(fastify: FastifyInstance, ctx: ServiceContext, kind: ResourceKind): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { segment, label } = RESOURCE_KINDS[kind];
  const Segment = segment[0]!.toUpperCase() + segment.slice(1);
  const tags = ['sharing'];

  app.post(
    `/api/${segment}/:id/share/`,
    {
      schema: {
        operationId: `post${Segment}ByIdShare`,
        summary: `Share a ${label.toLowerCase()} with a group at view, edit or share (needs share permission)`,
        tags,
        params: IdParams,
        body: ShareBody,
        response: { 200: ResourcePermissions },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { id } = request.params;
      const { group, permission, with_data } = request.body;
      const included = shareWithData(ctx, user, kind, id, group, permission, with_data === true);
      return { ...permissionsOf(ctx.db, kind, id, user), included };
    },
  );

  app.delete(
    `/api/${segment}/:id/share/:slug/`,
    {
      schema: {
        operationId: `delete${Segment}ByIdShareBySlug`,
        summary: `Stop sharing a ${label.toLowerCase()} with a group (needs share permission)`,
        tags,
        params: ShareParams,
        response: { 200: ResourcePermissions },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { id, slug } = request.params;
      unshareResource(ctx, user, kind, id, slug);
      return permissionsOf(ctx.db, kind, id, user);
    },
  );

  app.get(
    `/api/${segment}/:id/permissions/`,
    {
      schema: {
        operationId: `get${Segment}ByIdPermissions`,
        summary: `Who has access to a ${label.toLowerCase()}: owner, shares and each user's effective permission`,
        tags,
        params: IdParams,
        response: { 200: ResourcePermissions },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, kind, request.params.id, user, 'view');
      return permissionsOf(ctx.db, kind, request.params.id, user);
    },
  );
}

/** Registers the sharing routes of every resource kind. */
export function sharesRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const kind of RESOURCE_KIND_NAMES) kindShareRoutes(app, ctx, kind);
}
