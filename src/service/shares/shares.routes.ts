/**
 * Sharing routes for every owned resource kind: share with a group at view, edit or share;
 * unshare; and list who has access. A kind whose table does not exist yet answers 404.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sharing } from '../../shared/service-api/endpoints/shares';
import type { ServiceContext } from '../context';
import { requireUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import { RESOURCE_KIND_NAMES, RESOURCE_KINDS, type ResourceKind } from '../policy/resource-kinds';
import { permissionsOf } from './permissions.presenter';
import { unshareResource } from './shares.commands';
import { shareWithData } from './share-with-data';
import { serve } from '../http/serve-endpoint';

/** Registers share, unshare and permissions routes for one kind. */
function kindShareRoutes(fastify: FastifyInstance, ctx: ServiceContext, kind: ResourceKind): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const endpoints = sharing[RESOURCE_KINDS[kind].segment];

  serve(app, endpoints.share, async (request) => {
    const user = requireUser(request);
    const { id } = request.params;
    const { group, permission, with_data } = request.body;
    const included = shareWithData(ctx, user, kind, id, group, permission, with_data === true);
    return { ...permissionsOf(ctx.db, kind, id, user), included };
  });

  serve(app, endpoints.unshare, async (request) => {
    const user = requireUser(request);
    const { id, slug } = request.params;
    unshareResource(ctx, user, kind, id, slug);
    return permissionsOf(ctx.db, kind, id, user);
  });

  serve(app, endpoints.permissions, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, kind, request.params.id, user, 'view');
    return permissionsOf(ctx.db, kind, request.params.id, user);
  });
}

/** Registers the sharing routes of every resource kind. */
export function sharesRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const kind of RESOURCE_KIND_NAMES) kindShareRoutes(app, ctx, kind);
}
