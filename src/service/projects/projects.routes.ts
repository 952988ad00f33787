/** Project routes: create, list, read, update, delete, and sample membership. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PageQuery } from '../../shared/service-api/page';
import {
  NewProjectBody,
  Project,
  ProjectChangesBody,
  ProjectPage,
  ProjectSampleParams,
  ProjectSamplesBody,
} from '../../shared/service-api/projects';
import { IdParams } from '../../shared/service-api/resource';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { requireAccess, requireFullControl } from '../policy/policy';
import * as commands from './projects.commands';
import { presentProject } from './projects.presenter';
import { projectById, visibleProjectsPage } from './projects.store';

/** Registers /api/projects routes. */
export function projectsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['projects'];

  app.post(
    '/api/projects/',
    {
      schema: {
        operationId: 'postProjects',
        summary: 'Create a project, owned by the caller or by group_owner (a group slug)',
        tags,
        body: NewProjectBody,
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = commands.createProject(ctx, user, request.body);
      return reply.status(201).send(presentProject(ctx.db, row, user));
    },
  );

  app.get(
    '/api/projects/',
    {
      schema: {
        operationId: 'getProjects',
        summary: 'Projects the caller can see',
        tags,
        querystring: PageQuery,
        response: { 200: ProjectPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return mapPage(visibleProjectsPage(ctx.db, user, request.query), (r) => presentProject(ctx.db, r, user));
    },
  );

  app.get(
    '/api/projects/:id',
    {
      schema: {
        operationId: 'getProjectsById',
        summary: 'One project',
        tags,
        params: IdParams,
        response: { 200: Project },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', request.params.id, user, 'view');
      return presentProject(ctx.db, projectById(ctx.db, request.params.id)!, user);
    },
  );

  app.put(
    '/api/projects/:id',
    {
      schema: {
        operationId: 'putProjectsById',
        summary: 'Update a project (needs edit permission); sample_ids replaces the list',
        tags,
        params: IdParams,
        body: ProjectChangesBody,
        response: { 200: Project },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
      const row = commands.updateProject(ctx, user, request.params.id, request.body);
      return presentProject(ctx.db, row, user);
    },
  );

  app.delete(
    '/api/projects/:id',
    {
      schema: {
        operationId: 'deleteProjectsById',
        summary: 'Delete a project (owner or an admin of its owning group)',
        tags,
        params: IdParams,
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      requireFullControl(ctx.db, 'project', request.params.id, user);
      commands.deleteProject(ctx, user, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/projects/:id/samples/',
    {
      schema: {
        operationId: 'postProjectsByIdSamples',
        summary: 'Add samples to a project (needs edit permission)',
        tags,
        params: IdParams,
        body: ProjectSamplesBody,
        response: { 200: Project },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
      const row = commands.addProjectSamples(ctx, user, request.params.id, request.body.sample_ids);
      return presentProject(ctx.db, row, user);
    },
  );

  app.delete(
    '/api/projects/:id/samples/:sample_id',
    {
      schema: {
        operationId: 'deleteProjectsByIdSamplesBySampleId',
        summary: 'Remove a sample from a project (needs edit permission)',
        tags,
        params: ProjectSampleParams,
        response: { 200: Project },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', request.params.id, user, 'edit');
      const row = commands.removeProjectSample(ctx, request.params.id, request.params.sample_id);
      return presentProject(ctx.db, row, user);
    },
  );
}
