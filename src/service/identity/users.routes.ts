/** Admin routes over accounts: create, list, read, update (disable, can_run_pipelines, password). */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { limitOffset, pageQuerySchema, pageResponseSchema, type PageQuery } from '../http/pagination';
import { requireAdmin } from './authenticate';
import { emailSchema, nameSchema, newUserBodySchema, passwordSchema, userResponseSchema } from './user-schemas';
import { createUser, presentUser, updateUser, type UserChanges } from './users.commands';
import { userById, type UserRow } from './users.store';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
} as const;

/** Registers /api/users routes (administrators only). */
export function usersRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/api/users/',
    {
      schema: {
        summary: 'Create a user (admin)',
        tags: ['users'],
        body: newUserBodySchema,
        response: { 201: userResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const b = request.body as {
        username: string;
        password: string;
        email: string;
        name: string;
        can_run_pipelines?: boolean;
        is_admin?: boolean;
      };
      const row = await createUser(
        ctx,
        {
          username: b.username,
          password: b.password,
          email: b.email,
          name: b.name,
          isAdmin: b.is_admin ?? false,
          canRunPipelines: b.can_run_pipelines ?? false,
        },
        false,
        admin,
      );
      return reply.status(201).send(presentUser(row));
    },
  );

  app.get(
    '/api/users/',
    {
      schema: {
        summary: 'List users (admin)',
        tags: ['users'],
        querystring: pageQuerySchema,
        response: { 200: pageResponseSchema(userResponseSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const q = request.query as PageQuery;
      const { limit, offset } = limitOffset(q);
      const count = (ctx.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
      const rows = ctx.db.prepare('SELECT * FROM users ORDER BY id LIMIT ? OFFSET ?').all(limit, offset) as UserRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map(presentUser) };
    },
  );

  app.get(
    '/api/users/:id',
    {
      schema: { summary: 'One user (admin)', tags: ['users'], params: idParams, response: { 200: userResponseSchema } },
    },
    async (request) => {
      requireAdmin(request);
      const row = userById(ctx.db, (request.params as { id: number }).id);
      if (!row) throw errors.notFound('User');
      return presentUser(row);
    },
  );

  app.put(
    '/api/users/:id',
    {
      schema: {
        summary: 'Update a user (admin): disable, set can_run_pipelines or is_admin, reset the password',
        tags: ['users'],
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            email: emailSchema,
            name: nameSchema,
            password: passwordSchema,
            is_admin: { type: 'boolean' },
            can_run_pipelines: { type: 'boolean' },
            disabled: { type: 'boolean' },
          },
        },
        response: { 200: userResponseSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      const row = await updateUser(ctx, (request.params as { id: number }).id, request.body as UserChanges);
      return presentUser(row);
    },
  );
}
