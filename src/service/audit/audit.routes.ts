/**
 * GET /api/audit: the audit log for service administrators, newest first, paginated and
 * filterable by user, action, resource kind and id, and a time range. There is deliberately no
 * route that writes, edits or deletes entries.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { AUDIT_ACTIONS, AUDIT_KINDS, presentAudit, type AuditRow } from './audit-log';

const nullable = (type: string) => ({ type: [type, 'null'] });

export const auditEntrySchema = {
  type: 'object',
  required: ['id', 'at', 'user', 'action', 'resource', 'details'],
  properties: {
    id: { type: 'integer' },
    at: { type: 'string', description: 'ISO-8601 UTC time of the action' },
    user: { ...nullable('string'), description: 'Who did it (null: the service itself)' },
    user_id: nullable('integer'),
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    resource: {
      type: 'object',
      required: ['kind', 'id', 'name'],
      properties: {
        kind: { type: 'string', enum: [...AUDIT_KINDS] },
        id: nullable('integer'),
        name: nullable('string'),
      },
    },
    details: { type: 'object', additionalProperties: true },
  },
} as const;

interface AuditQuery extends PageQuery {
  user?: string;
  action?: string;
  resource_kind?: string;
  resource_id?: number;
  since?: string;
  until?: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A query time as the log's ISO-8601 UTC form, or a VALIDATION_ERROR naming the field. */
function isoTime(field: string, value: string): string {
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw errors.validation({ [field]: 'an ISO-8601 date or time, e.g. 2026-11-24T09:00:00Z' });
  return new Date(ms).toISOString();
}

/** Registers the audit routes. */
export function auditRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(
    '/api/audit',
    {
      schema: {
        summary: 'The audit log (service administrators only), newest first',
        description:
          'Who created, shared, ran, resumed, cancelled, downloaded and deleted what, and when. Filters: user ' +
          '(username), action, resource_kind, resource_id, since and until (ISO-8601; since inclusive, until ' +
          'exclusive). Append-only: no route changes it.',
        tags: ['audit'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            user: { type: 'string', minLength: 1, maxLength: 150 },
            action: { type: 'string', enum: [...AUDIT_ACTIONS] },
            resource_kind: { type: 'string', enum: [...AUDIT_KINDS] },
            resource_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            since: { type: 'string', maxLength: 40 },
            until: { type: 'string', maxLength: 40 },
          },
        },
        response: { 200: pageResponseSchema(auditEntrySchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!user.isAdmin) throw errors.permissionDenied('Only service administrators can read the audit log');
      const q = request.query as AuditQuery;
      const where: string[] = [];
      const params: unknown[] = [];
      const filter = (sql: string, value: unknown) => {
        where.push(sql);
        params.push(value);
      };
      if (q.user !== undefined) filter('username = ?', q.user);
      if (q.action !== undefined) filter('action = ?', q.action);
      if (q.resource_kind !== undefined) filter('resource_kind = ?', q.resource_kind);
      if (q.resource_id !== undefined) filter('resource_id = ?', q.resource_id);
      const since = q.since !== undefined ? isoTime('since', q.since) : undefined;
      const until = q.until !== undefined ? isoTime('until', q.until) : undefined;
      if (since !== undefined && until !== undefined && since >= until) {
        throw errors.validation({ until: 'must be later than since' });
      }
      // ISO-8601 UTC strings of one length sort as times do.
      if (since !== undefined) filter('at >= ?', since);
      if (until !== undefined) filter('at < ?', until);
      const sql = `FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
      const count = (ctx.db.prepare(`SELECT count(*) AS n ${sql}`).get(...params) as { n: number }).n;
      const { limit, offset } = limitOffset(q);
      const rows = ctx.db
        .prepare(`SELECT * ${sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit, offset) as AuditRow[];
      return { count, page: q.page, per_page: q.per_page, items: rows.map(presentAudit) };
    },
  );
}
