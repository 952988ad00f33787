/** Group routes (paths end with a slash as the spec shows; the slash-less path is served too). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  GroupChangesBody,
  GroupDeleted,
  GroupDetail,
  GroupPage,
  GroupSlugParams,
  InviteBody,
  InviteResponse,
  LeftGroup,
  MemberPermissionBody,
  NewGroupBody,
  RemoveMemberBody,
  UsernameBody,
} from '../../shared/service-api/groups';
import { PageQuery } from '../../shared/service-api/page';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser, type AuthUser } from '../auth/authenticate';
import * as commands from './groups.commands';
import { presentGroup, presentGroupSummary } from './groups.presenter';
import { groupsOfMemberPage } from './groups.store';

/** Registers every group route. */
export function groupsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  /** The group's details as the caller sees them after an action. */
  const detail = (slug: string, user: AuthUser) => {
    const { group, mine } = commands.loadGroup(ctx, slug, user);
    return presentGroup(ctx.db, group, mine);
  };

  app.get(
    '/api/groups/',
    {
      schema: {
        operationId: 'getGroups',
        summary: "The caller's groups (member or admin; open invitations are in /api/me)",
        tags: ['groups'],
        querystring: PageQuery,
        response: { 200: GroupPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return mapPage(groupsOfMemberPage(ctx.db, user.id, request.query), (r) =>
        presentGroupSummary(ctx.db, r, { role: r.m_role, permission: r.m_permission }),
      );
    },
  );

  app.post(
    '/api/groups/',
    {
      schema: {
        operationId: 'postGroups',
        summary: 'Create a group; the slug is generated from the name and the caller becomes its admin',
        tags: ['groups'],
        body: NewGroupBody,
        response: { 201: GroupDetail },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const group = commands.createGroup(ctx, user, request.body.name, request.body.description ?? '');
      return reply.status(201).send(detail(group.slug, user));
    },
  );

  app.get(
    '/api/groups/:slug/',
    {
      schema: {
        operationId: 'getGroupsBySlug',
        summary: 'Group details (members, admins and invitees see it; others get 404)',
        tags: ['groups'],
        params: GroupSlugParams,
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { group, mine } = commands.loadGroup(ctx, request.params.slug, user);
      return presentGroup(ctx.db, group, mine);
    },
  );

  app.put(
    '/api/groups/:slug/',
    {
      schema: {
        operationId: 'putGroupsBySlug',
        summary: 'Update the name or description (admin); the slug stays',
        tags: ['groups'],
        params: GroupSlugParams,
        body: GroupChangesBody,
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
      commands.updateGroup(ctx, access, request.body, user);
      return detail(access.group.slug, user);
    },
  );

  app.delete(
    '/api/groups/:slug/',
    {
      schema: {
        operationId: 'deleteGroupsBySlug',
        summary: 'Delete the group (admin): its shares go, the resources it owns pass to the deleting admin',
        tags: ['groups'],
        params: GroupSlugParams,
        response: { 200: GroupDeleted },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return commands.deleteGroup(ctx, commands.loadGroupAsAdmin(ctx, request.params.slug, user), user);
    },
  );

  app.post(
    '/api/groups/:slug/invite/',
    {
      schema: {
        operationId: 'postGroupsBySlugInvite',
        summary: 'Invite people by e-mail address at an initial permission (admin); each invitee is notified',
        tags: ['groups'],
        params: GroupSlugParams,
        body: InviteBody,
        response: { 200: InviteResponse },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
      const outcome = commands.invite(ctx, access, user, request.body.emails, request.body.permission);
      return { ...detail(access.group.slug, user), ...outcome };
    },
  );

  app.post(
    '/api/groups/:slug/accept/',
    {
      schema: {
        operationId: 'postGroupsBySlugAccept',
        summary: 'Accept your invitation: you become a member',
        tags: ['groups'],
        params: GroupSlugParams,
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroup(ctx, request.params.slug, user);
      commands.accept(ctx, access);
      return detail(access.group.slug, user);
    },
  );

  const leaving = [
    ['decline', 'postGroupsBySlugDecline', 'Decline your invitation', commands.decline],
    ['leave', 'postGroupsBySlugLeave', 'Leave the group (the last admin is refused with LAST_ADMIN)', commands.leave],
  ] as const;
  for (const [action, operationId, summary, run] of leaving) {
    app.post(
      `/api/groups/:slug/${action}/`,
      { schema: { operationId, summary, tags: ['groups'], params: GroupSlugParams, response: { 200: LeftGroup } } },
      async (request) => {
        const access = commands.loadGroup(ctx, request.params.slug, requireUser(request));
        run(ctx, access);
        return { group: access.group.slug, membership: null };
      },
    );
  }

  app.post(
    '/api/groups/:slug/remove/',
    {
      schema: {
        operationId: 'postGroupsBySlugRemove',
        summary: 'Remove a member or an invitation by username, or a pending invitation by e-mail (admin)',
        tags: ['groups'],
        params: GroupSlugParams,
        body: RemoveMemberBody,
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
      const b = request.body;
      if (b.username !== undefined) commands.remove(ctx, access, b.username);
      else commands.revokePendingInvitation(ctx, access, b.email!);
      return detail(access.group.slug, user);
    },
  );

  const adminActions = [
    ['promote', 'postGroupsBySlugPromote', 'Promote a member to admin (admin)', commands.promote],
    ['demote', 'postGroupsBySlugDemote', 'Demote an admin to member (admin; never the last admin)', commands.demote],
  ] as const;
  for (const [action, operationId, summary, run] of adminActions) {
    app.post(
      `/api/groups/:slug/${action}/`,
      {
        schema: {
          operationId,
          summary,
          tags: ['groups'],
          params: GroupSlugParams,
          body: UsernameBody,
          response: { 200: GroupDetail },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
        run(ctx, access, request.body.username);
        return detail(access.group.slug, user);
      },
    );
  }

  app.post(
    '/api/groups/:slug/permission/',
    {
      schema: {
        operationId: 'postGroupsBySlugPermission',
        summary: "Change a member's permission in the group (admin)",
        tags: ['groups'],
        params: GroupSlugParams,
        body: MemberPermissionBody,
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, request.params.slug, user);
      commands.setPermission(ctx, access, request.body.username, request.body.permission);
      return detail(access.group.slug, user);
    },
  );
}
