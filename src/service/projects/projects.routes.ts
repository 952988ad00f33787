/** Project routes: create, list, read, update, delete, and sample membership. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { requireAccess, requireFullControl } from '../policy/policy';
import * as commands from './projects.commands';
import { presentProject } from './projects.presenter';
import { projectById, visibleProjectsPage } from './projects.store';
import {
  deleteProjectsById,
  deleteProjectsByIdSamplesBySampleId,
  getProjects,
  getProjectsById,
  postProjects,
  postProjectsByIdSamples,
  putProjectsById,
} from '../../shared/service-api/endpoints/projects';
import { serve } from '../http/serve-endpoint';

/** Registers /api/projects routes. */
export function projectsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  serve(app, postProjects, async (request, reply) => {
    const user = requireUser(request);
    const row = commands.createProject(ctx, user, request.body);
    return reply.status(201).send(presentProject(ctx.db, row, user));
  });

  serve(app, getProjects, async (request) => {
    const user = requireUser(request);
    return mapPage(visibleProjectsPage(ctx.db, user, request.query), (r) => presentProject(ctx.db, r, user));
  });

  serve(app, getProjectsById, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'project', request.params.id, user, 'view');
    return presentProject(ctx.db, projectById(ctx.db, request.params.id)!, user);
  });

  serve(app, putProjectsById, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
    const row = commands.updateProject(ctx, user, request.params.id, request.body);
    return presentProject(ctx.db, row, user);
  });

  serve(app, deleteProjectsById, async (request, reply) => {
    const user = requireUser(request);
    requireFullControl(ctx.db, 'project', request.params.id, user);
    commands.deleteProject(ctx, user, request.params.id);
    return reply.status(204).send();
  });

  serve(app, postProjectsByIdSamples, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
    const row = commands.addProjectSamples(ctx, user, request.params.id, request.body.sample_ids);
    return presentProject(ctx.db, row, user);
  });

  serve(app, deleteProjectsByIdSamplesBySampleId, async (request) => {
    const user = requireUser(request);
    requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
    const row = commands.removeProjectSample(ctx, request.params.id, request.params.sample_id);
    return presentProject(ctx.db, row, user);
  });
}
