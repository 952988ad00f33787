/**
 * Execution routes: the list with filters (status, pipeline, sample), detail, logs after a
 * cursor, cancel, and the Nextflow weblog receiver (authenticated by the run's secret, since
 * Nextflow cannot send a bearer token). Sharing and permissions are the policy's generic routes.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { requireAccess, visibleWhere } from '../policy/policy';
import { weblogReceivers, type WeblogEvent } from '../engines/nextflow/nextflow-weblog';
import type { PipelineService } from '../pipelines/pipeline-service';
import { isTerminal } from './execution-events';
import { executionSchema, logSchema, presentExecution } from './execution-presenter';
import { getExecution, listLogs, type ExecutionRow } from './executions.repo';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

interface ListQuery extends PageQuery {
  status?: string;
  pipeline?: string;
  sample?: number;
}

/** Registers the execution routes. */
export function executionsRoutes(app: FastifyInstance, ctx: ServiceContext, svc: PipelineService): void {
  app.get(
    '/api/executions/',
    {
      schema: {
        summary: 'Executions the caller can see, newest first',
        description: 'Filters: status, pipeline (id or name), sample (id).',
        tags: ['executions'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
            pipeline: { type: 'string', maxLength: 200 },
            sample: { type: 'integer', minimum: 1 },
          },
        },
        response: { 200: pageResponseSchema(executionSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as ListQuery;
      const visible = visibleWhere('execution', 'e', user);
      const where = [visible.sql];
      const params: unknown[] = [...visible.params];
      const filter = (sql: string, value: unknown) => {
        where.push(sql);
        params.push(value);
      };
      if (q.status) filter('e.status = ?', q.status);
      if (q.pipeline && /^\d+$/.test(q.pipeline)) filter('e.pipeline_id = ?', Number(q.pipeline));
      else if (q.pipeline) filter('lower(e.pipeline_name) = lower(?)', q.pipeline);
      if (q.sample) filter('e.id IN (SELECT execution_id FROM execution_samples WHERE sample_id = ?)', q.sample);
      const sql = `FROM executions e WHERE ${where.join(' AND ')}`;
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const { limit, offset } = limitOffset(q);
      const rows = ctx.db
        .prepare(`SELECT e.* ${sql} ORDER BY e.id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as ExecutionRow[];
      return {
        count,
        page: q.page,
        per_page: q.per_page,
        items: rows.map((r) => presentExecution(ctx, r, user, false)),
      };
    },
  );

  app.get(
    '/api/executions/:id',
    {
      schema: {
        summary: 'One execution: processes, outputs, latest logs',
        tags: ['executions'],
        params: idParams,
        response: { 200: executionSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      requireAccess(ctx.db, 'execution', id, user, 'view');
      return presentExecution(ctx, getExecution(ctx.db, id)!, user);
    },
  );

  app.get(
    '/api/executions/:id/logs',
    {
      schema: {
        summary: 'Log entries after a cursor (the id of the last entry seen), oldest first',
        tags: ['executions'],
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            after: { type: 'integer', minimum: 0, default: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 5000, default: 1000 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['items', 'next', 'complete'],
            properties: {
              items: { type: 'array', items: logSchema },
              next: { type: 'integer' },
              complete: { type: 'boolean' },
            },
          },
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      const { after, limit } = request.query as { after: number; limit: number };
      requireAccess(ctx.db, 'execution', id, user, 'view');
      const items = listLogs(ctx.db, id, after, limit);
      const finished = isTerminal(getExecution(ctx.db, id)!.status);
      return { items, next: items.at(-1)?.id ?? after, complete: finished && items.length < limit };
    },
  );

  app.post(
    '/api/executions/:id/cancel',
    {
      schema: {
        summary: 'Cancel a queued or running execution (its whole process tree is killed)',
        tags: ['executions'],
        params: idParams,
        response: { 200: executionSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      requireAccess(ctx.db, 'execution', id, user, 'edit');
      if (!svc.queue.cancel(id, user)) {
        const status = getExecution(ctx.db, id)!.status;
        throw new ApiError('NOT_CANCELLABLE', `The execution has already finished (${status})`);
      }
      await svc.queue.settled(id);
      return presentExecution(ctx, getExecution(ctx.db, id)!, user);
    },
  );

  app.post(
    '/api/executions/:id/weblog/:secret',
    {
      schema: {
        summary: "Nextflow -with-weblog events of a running execution (authenticated by the run's secret)",
        tags: ['executions'],
        security: [],
        params: {
          type: 'object',
          required: ['id', 'secret'],
          properties: { id: { type: 'integer', minimum: 1 }, secret: { type: 'string', maxLength: 200 } },
        },
        body: { type: 'object' },
      },
    },
    async (request, reply) => {
      const { id, secret } = request.params as { id: number; secret: string };
      // A map lookup by secret, then the id: the secret is 48 random hex digits per execution.
      const receiver = weblogReceivers.get(secret);
      if (!receiver || receiver.executionId !== id) throw errors.notFound('Running execution');
      receiver.receive(request.body as WeblogEvent);
      return reply.status(204).send();
    },
  );
}
