/** Group routes (paths end with a slash as the spec shows; the slash-less path is served too). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { requireUser } from '../identity/authenticate';
import { emailSchema } from '../identity/user-schemas';
import { limitOffset, pageQuerySchema, pageResponseSchema, type PageQuery } from '../http/pagination';
import type { Permission } from '../policy/policy';
import * as commands from './groups.commands';
import { groupDetailSchema, groupSummarySchema, presentGroup, presentGroupSummary } from './groups.presenter';
import { groupBySlug, membershipOf, type GroupRow, type MembershipRow } from './groups.store';

const slugParams = {
  type: 'object',
  required: ['slug'],
  properties: { slug: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const permissionSchema = { type: 'string', enum: ['view', 'edit', 'share'] } as const;
const usernameBody = {
  type: 'object',
  additionalProperties: false,
  required: ['username'],
  properties: { username: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;
const groupFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: 'string', maxLength: 2000 },
} as const;

function slugOf(request: FastifyRequest): string {
  return (request.params as { slug: string }).slug;
}

/** Registers every group route. */
export function groupsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const detail = (slug: string, userId: number) => {
    const group = groupBySlug(ctx.db, slug) as GroupRow;
    return presentGroup(ctx.db, group, membershipOf(ctx.db, group.id, userId) as MembershipRow);
  };

  app.get(
    '/api/groups/',
    {
      schema: {
        summary: "The caller's groups (member or admin; open invitations are in /api/me)",
        tags: ['groups'],
        querystring: pageQuerySchema,
        response: { 200: pageResponseSchema(groupSummarySchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery;
      const { limit, offset } = limitOffset(q);
      const where = "FROM groups g JOIN memberships m ON m.group_id = g.id WHERE m.user_id = ? AND m.role <> 'invited'";
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${where}`).get(user.id) as { n: number }).n;
      const rows = ctx.db
        .prepare(
          `SELECT g.*, m.role AS m_role, m.permission AS m_permission ${where} ORDER BY g.name, g.slug LIMIT ? OFFSET ?`,
        )
        .all(user.id, limit, offset) as Array<GroupRow & { m_role: MembershipRow['role']; m_permission: Permission }>;
      const items = rows.map((r) =>
        presentGroupSummary(ctx.db, r, {
          group_id: r.id,
          user_id: user.id,
          role: r.m_role,
          permission: r.m_permission,
          invited_by: null,
          created: r.created,
        }),
      );
      return { count, page: q.page, per_page: q.per_page, items };
    },
  );

  app.post(
    '/api/groups/',
    {
      schema: {
        summary: 'Create a group; the slug is generated from the name and the caller becomes its admin',
        tags: ['groups'],
        body: { type: 'object', additionalProperties: false, required: ['name'], properties: groupFields },
        response: { 201: groupDetailSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const b = request.body as { name: string; description?: string };
      const group = commands.createGroup(ctx, user, b.name, b.description ?? '');
      return reply.status(201).send(detail(group.slug, user.id));
    },
  );

  app.get(
    '/api/groups/:slug/',
    {
      schema: {
        summary: 'Group details (members, admins and invitees see it; others get 404)',
        tags: ['groups'],
        params: slugParams,
        response: { 200: groupDetailSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { group, mine } = commands.loadGroup(ctx, slugOf(request), user);
      return presentGroup(ctx.db, group, mine);
    },
  );

  app.put(
    '/api/groups/:slug/',
    {
      schema: {
        summary: 'Update the name or description (admin); the slug stays',
        tags: ['groups'],
        params: slugParams,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: groupFields },
        response: { 200: groupDetailSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, slugOf(request), user);
      commands.updateGroup(ctx, access, request.body as { name?: string; description?: string });
      return detail(access.group.slug, user.id);
    },
  );

  app.delete(
    '/api/groups/:slug/',
    {
      schema: {
        summary: 'Delete the group (admin): its shares go, the resources it owns pass to the deleting admin',
        tags: ['groups'],
        params: slugParams,
        response: {
          200: {
            type: 'object',
            properties: {
              deleted: { type: 'string' },
              handed_over_to: { type: 'string' },
              handed_over: { type: 'object', additionalProperties: { type: 'integer' } },
            },
          },
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return commands.deleteGroup(ctx, commands.loadGroupAsAdmin(ctx, slugOf(request), user), user);
    },
  );

  app.post(
    '/api/groups/:slug/invite/',
    {
      schema: {
        summary: 'Invite people by e-mail address at an initial permission (admin); each invitee is notified',
        tags: ['groups'],
        params: slugParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['emails', 'permission'],
          properties: {
            emails: { type: 'array', minItems: 1, maxItems: 100, items: emailSchema },
            permission: permissionSchema,
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              ...groupDetailSchema.properties,
              invited: { type: 'array', items: { type: 'string' } },
              pending: { type: 'array', items: { type: 'string' } },
              already_members: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, slugOf(request), user);
      const b = request.body as { emails: string[]; permission: Permission };
      const outcome = commands.invite(ctx, access, user, b.emails, b.permission);
      return { ...detail(access.group.slug, user.id), ...outcome };
    },
  );

  const selfActions = [
    ['accept', 'Accept your invitation: you become a member', commands.accept],
    ['decline', 'Decline your invitation', commands.decline],
    ['leave', 'Leave the group (the last admin is refused with LAST_ADMIN)', commands.leave],
  ] as const;
  for (const [action, summary, run] of selfActions) {
    app.post(
      `/api/groups/:slug/${action}/`,
      {
        schema: {
          summary,
          tags: ['groups'],
          params: slugParams,
          response: action === 'accept' ? { 200: groupDetailSchema } : {},
        },
      },
      async (request) => {
        const user = requireUser(request);
        const access = commands.loadGroup(ctx, slugOf(request), user);
        run(ctx, access);
        if (action === 'accept') return detail(access.group.slug, user.id);
        return { group: access.group.slug, membership: null };
      },
    );
  }

  app.post(
    '/api/groups/:slug/remove/',
    {
      schema: {
        summary: 'Remove a member or an invitation by username, or a pending invitation by e-mail (admin)',
        tags: ['groups'],
        params: slugParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
          properties: { ...usernameBody.properties, email: emailSchema },
        },
        response: { 200: groupDetailSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, slugOf(request), user);
      const b = request.body as { username?: string; email?: string };
      if (b.username !== undefined) commands.remove(ctx, access, b.username);
      else commands.revokePendingInvitation(ctx, access, b.email!);
      return detail(access.group.slug, user.id);
    },
  );

  const adminActions = [
    ['promote', 'Promote a member to admin (admin)', commands.promote],
    ['demote', 'Demote an admin to member (admin; never the last admin)', commands.demote],
  ] as const;
  for (const [action, summary, run] of adminActions) {
    app.post(
      `/api/groups/:slug/${action}/`,
      {
        schema: {
          summary,
          tags: ['groups'],
          params: slugParams,
          body: usernameBody,
          response: { 200: groupDetailSchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const access = commands.loadGroupAsAdmin(ctx, slugOf(request), user);
        run(ctx, access, (request.body as { username: string }).username);
        return detail(access.group.slug, user.id);
      },
    );
  }

  app.post(
    '/api/groups/:slug/permission/',
    {
      schema: {
        summary: "Change a member's permission in the group (admin)",
        tags: ['groups'],
        params: slugParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['username', 'permission'],
          properties: { ...usernameBody.properties, permission: permissionSchema },
        },
        response: { 200: groupDetailSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = commands.loadGroupAsAdmin(ctx, slugOf(request), user);
      const b = request.body as { username: string; permission: Permission };
      commands.setPermission(ctx, access, b.username, b.permission);
      return detail(access.group.slug, user.id);
    },
  );
}
