/** Admin routes over accounts: create, list, read, update (disable, can_run_pipelines, password). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { NewUserBody, User, UserChangesBody, UserPage } from '../../shared/service-api/identity';
import { PageQuery } from '../../shared/service-api/page';
import { IdParams } from '../../shared/service-api/resource';
import { mapPage } from '../db/select-page';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireAdmin } from '../auth/authenticate';
import { createUser, updateUser } from './users.commands';
import { presentUser } from './users.presenter';
import { userById, usersPage } from '../auth/users.store';

/** Registers /api/users routes (administrators only). */
export function usersRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/users/',
    {
      schema: {
        operationId: 'postUsers',
        summary: 'Create a user (admin)',
        tags: ['users'],
        body: NewUserBody,
        response: { 201: User },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const b = request.body;
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
        operationId: 'getUsers',
        summary: 'List users (admin)',
        tags: ['users'],
        querystring: PageQuery,
        response: { 200: UserPage },
      },
    },
    async (request) => {
      requireAdmin(request);
      return mapPage(usersPage(ctx.db, request.query), presentUser);
    },
  );

  app.get(
    '/api/users/:id',
    {
      schema: {
        operationId: 'getUsersById',
        summary: 'One user (admin)',
        tags: ['users'],
        params: IdParams,
        response: { 200: User },
      },
    },
    async (request) => {
      requireAdmin(request);
      const row = userById(ctx.db, request.params.id);
      if (!row) throw errors.notFound('User');
      return presentUser(row);
    },
  );

  app.put(
    '/api/users/:id',
    {
      schema: {
        operationId: 'putUsersById',
        summary: 'Update a user (admin): disable, set can_run_pipelines or is_admin, reset the password',
        tags: ['users'],
        params: IdParams,
        body: UserChangesBody,
        response: { 200: User },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return presentUser(await updateUser(ctx, request.params.id, request.body, admin));
    },
  );
}
