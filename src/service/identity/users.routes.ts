/** Admin routes over accounts: create, list, read, update (disable, can_run_pipelines, password). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { mapPage } from '../db/select-page';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireAdmin } from '../auth/authenticate';
import { createUser, updateUser } from './users.commands';
import { presentUser } from './users.presenter';
import { userById, usersPage } from '../auth/users.store';
import { getUsers, getUsersById, postUsers, putUsersById } from '../../shared/service-api/endpoints/users';
import { serve } from '../http/serve-endpoint';

/** Registers /api/users routes (administrators only). */
export function usersRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  serve(app, postUsers, async (request, reply) => {
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
  });

  serve(app, getUsers, async (request) => {
    requireAdmin(request);
    return mapPage(usersPage(ctx.db, request.query), presentUser);
  });

  serve(app, getUsersById, async (request) => {
    requireAdmin(request);
    const row = userById(ctx.db, request.params.id);
    if (!row) throw errors.notFound('User');
    return presentUser(row);
  });

  serve(app, putUsersById, async (request) => {
    const admin = requireAdmin(request);
    return presentUser(await updateUser(ctx, request.params.id, request.body, admin));
  });
}
