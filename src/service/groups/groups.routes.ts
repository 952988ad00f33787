/** Group routes (paths end with a slash as the spec shows; the slash-less path is served too). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser, type AuthUser } from '../auth/authenticate';
import * as commands from './groups.commands';
import { presentGroup, presentGroupSummary } from './groups.presenter';
import { groupsOfMemberPage } from './groups.store';
import {
  deleteGroupsBySlug,
  getGroups,
  getGroupsBySlug,
  postGroups,
  postGroupsBySlugAccept,
  postGroupsBySlugDecline,
  postGroupsBySlugDemote,
  postGroupsBySlugInvite,
  postGroupsBySlugLeave,
  postGroupsBySlugPermission,
  postGroupsBySlugPromote,
  postGroupsBySlugRemove,
  putGroupsBySlug,
} from '../../shared/service-api/endpoints/groups';
import { serve } from '../http/serve-endpoint';

/** Registers every group route. */
export function groupsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  /** The group's details as the caller sees them after an action. */
  const detail = (slug: string, user: AuthUser) => {
    const { group, mine } = commands.loadGroup(ctx, slug, user);
    return presentGroup(ctx.db, group, mine);
  };

  serve(app, getGroups, async (request) => {
    const user = requireUser(request);
    return mapPage(groupsOfMemberPage(ctx.db, user.id, request.query), (r) =>
      presentGroupSummary(ctx.db, r, { role: r.m_role, permission: r.m_permission }),
    );
  });

  serve(app, postGroups, async (request, reply) => {
    const user = requireUser(request);
    const group = commands.createGroup(ctx, user, request.body.name, request.body.description ?? '');
    return reply.status(201).send(detail(group.slug, user));
  });

  serve(app, getGroupsBySlug, async (request) => {
    const user = requireUser(request);
    const { group, mine } = commands.loadGroup(ctx, request.params.slug, user);
    return presentGroup(ctx.db, group, mine);
  });

  serve(app, putGroupsBySlug, async (request) => {
    const user = requireUser(request);
    const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
    commands.updateGroup(ctx, access, request.body, user);
    return detail(access.group.slug, user);
  });

  serve(app, deleteGroupsBySlug, async (request) => {
    const user = requireUser(request);
    return commands.deleteGroup(ctx, commands.loadGroupAsAdmin(ctx, request.params.slug, user), user);
  });

  serve(app, postGroupsBySlugInvite, async (request) => {
    const user = requireUser(request);
    const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
    const outcome = commands.invite(ctx, access, user, request.body.emails, request.body.permission);
    return { ...detail(access.group.slug, user), ...outcome };
  });

  serve(app, postGroupsBySlugAccept, async (request) => {
    const user = requireUser(request);
    const access = commands.loadGroup(ctx, request.params.slug, user);
    commands.accept(ctx, access);
    return detail(access.group.slug, user);
  });

  const leaving = [
    [postGroupsBySlugDecline, commands.decline],
    [postGroupsBySlugLeave, commands.leave],
  ] as const;
  for (const [endpoint, run] of leaving) {
    serve(app, endpoint, async (request) => {
      const access = commands.loadGroup(ctx, request.params.slug, requireUser(request));
      run(ctx, access);
      return { group: access.group.slug, membership: null };
    });
  }

  serve(app, postGroupsBySlugRemove, async (request) => {
    const user = requireUser(request);
    const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
    const b = request.body;
    if (b.username !== undefined) commands.remove(ctx, access, b.username);
    else commands.revokePendingInvitation(ctx, access, b.email!);
    return detail(access.group.slug, user);
  });

  const adminActions = [
    [postGroupsBySlugPromote, commands.promote],
    [postGroupsBySlugDemote, commands.demote],
  ] as const;
  for (const [endpoint, run] of adminActions) {
    serve(app, endpoint, async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
      run(ctx, access, request.body.username);
      return detail(access.group.slug, user);
    });
  }

  serve(app, postGroupsBySlugPermission, async (request) => {
    const user = requireUser(request);
    const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
    commands.setPermission(ctx, access, request.body.username, request.body.permission);
    return detail(access.group.slug, user);
  });
}
