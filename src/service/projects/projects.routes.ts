/** Project routes: create, list, read, update, delete, and sample membership. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQuerySchema, pageResponseSchema, type PageQuery } from '../http/pagination';
import { requireAccess, requireFullControl, visibleWhere } from '../policy/policy';
import * as commands from './projects.commands';
import { presentProject, projectSchema } from './projects.presenter';

const idSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: idSchema } } as const;
const sampleIds = { type: 'array', maxItems: 10_000, items: idSchema } as const;
const fields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: 'string', maxLength: 5000 },
  sample_ids: sampleIds,
} as const;

function idOf(request: FastifyRequest): number {
  return (request.params as { id: number }).id;
}

/** Registers /api/projects routes. */
export function projectsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const tags = ['projects'];

  app.post(
    '/api/projects/',
    {
      schema: {
        summary: 'Create a project, owned by the caller or by group_owner (a group slug)',
        tags,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { ...fields, group_owner: { type: ['string', 'null'], minLength: 1, maxLength: 64 } },
        },
        response: { 201: projectSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const row = commands.createProject(ctx, user, request.body as commands.NewProject);
      return reply.status(201).send(presentProject(ctx.db, row, user));
    },
  );

  app.get(
    '/api/projects/',
    {
      schema: {
        summary: 'Projects the caller can see',
        tags,
        querystring: pageQuerySchema,
        response: { 200: pageResponseSchema(projectSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery;
      const { limit, offset } = limitOffset(q);
      const where = visibleWhere('project', 'p', user);
      const count = (
        ctx.db.prepare(`SELECT count(*) AS n FROM projects p WHERE ${where.sql}`).get(...where.params) as {
          n: number;
        }
      ).n;
      const rows = ctx.db
        .prepare(`SELECT p.* FROM projects p WHERE ${where.sql} ORDER BY p.id DESC LIMIT ? OFFSET ?`)
        .all(...where.params, limit, offset) as commands.ProjectRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map((r) => presentProject(ctx.db, r, user)) };
    },
  );

  app.get(
    '/api/projects/:id',
    { schema: { summary: 'One project', tags, params: idParams, response: { 200: projectSchema } } },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', idOf(request), user, 'view');
      return presentProject(ctx.db, commands.projectById(ctx, idOf(request))!, user);
    },
  );

  app.put(
    '/api/projects/:id',
    {
      schema: {
        summary: 'Update a project (needs edit permission); sample_ids replaces the list',
        tags,
        params: idParams,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields },
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', idOf(request), user, 'edit');
      const row = commands.updateProject(ctx, user, idOf(request), request.body as commands.ProjectChanges);
      return presentProject(ctx.db, row, user);
    },
  );

  app.delete(
    '/api/projects/:id',
    { schema: { summary: 'Delete a project (owner or an admin of its owning group)', tags, params: idParams } },
    async (request, reply) => {
      const user = requireUser(request);
      requireFullControl(ctx.db, 'project', idOf(request), user);
      commands.deleteProject(ctx, user, idOf(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/projects/:id/samples/',
    {
      schema: {
        summary: 'Add samples to a project (needs edit permission)',
        tags,
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['sample_ids'],
          properties: { sample_ids: sampleIds },
        },
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', idOf(request), user, 'edit');
      const row = commands.addProjectSamples(
        ctx,
        user,
        idOf(request),
        (request.body as { sample_ids: number[] }).sample_ids,
      );
      return presentProject(ctx.db, row, user);
    },
  );

  app.delete(
    '/api/projects/:id/samples/:sample_id',
    {
      schema: {
        summary: 'Remove a sample from a project (needs edit permission)',
        tags,
        params: { type: 'object', required: ['id', 'sample_id'], properties: { id: idSchema, sample_id: idSchema } },
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      requireAccess(ctx.db, 'project', idOf(request), user, 'edit');
      const row = commands.removeProjectSample(ctx, idOf(request), (request.params as { sample_id: number }).sample_id);
      return presentProject(ctx.db, row, user);
    },
  );
}
