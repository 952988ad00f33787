/** The caller's notifications (invitations and the like), newest first, and marking them read. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { requireUser } from '../identity/authenticate';
import { limitOffset, pageQueryProperties, pageResponseSchema, type PageQuery } from '../http/pagination';
import { presentNotification, type NotificationRow } from './notifications.store';

const notificationSchema = {
  type: 'object',
  required: ['id', 'kind', 'subject', 'body', 'data', 'mail_status', 'created', 'read'],
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    subject: { type: 'string' },
    body: { type: 'string' },
    data: { type: 'object', additionalProperties: true },
    mail_status: { type: 'string', enum: ['not_configured', 'sending', 'sent', 'failed'] },
    created: { type: 'string' },
    read: { type: 'boolean' },
  },
} as const;

/** Registers /api/notifications routes. */
export function notificationsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const tags = ['notifications'];

  app.get(
    '/api/notifications',
    {
      schema: {
        summary: "The caller's notifications, newest first (unread=true for unread only)",
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...pageQueryProperties, unread: { type: 'boolean' } },
        },
        response: {
          200: {
            ...pageResponseSchema(notificationSchema),
            properties: {
              ...(pageResponseSchema(notificationSchema).properties as object),
              unread_count: { type: 'integer' },
            },
          },
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const q = request.query as PageQuery & { unread?: boolean };
      const { limit, offset } = limitOffset(q);
      const where = `user_id = ?${q.unread ? ' AND read IS NULL' : ''}`;
      const count = (
        ctx.db.prepare(`SELECT count(*) AS n FROM notifications WHERE ${where}`).get(user.id) as { n: number }
      ).n;
      const unread = (
        ctx.db.prepare('SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read IS NULL').get(user.id) as {
          n: number;
        }
      ).n;
      const rows = ctx.db
        .prepare(`SELECT * FROM notifications WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(user.id, limit, offset) as NotificationRow[];
      return { count, page: q.page, per_page: q.per_page, unread_count: unread, items: rows.map(presentNotification) };
    },
  );

  app.post(
    '/api/notifications/:id/read/',
    {
      schema: {
        summary: 'Mark one notification read',
        tags,
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
        },
        response: { 200: notificationSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = (request.params as { id: number }).id;
      const row = ctx.db.prepare('SELECT * FROM notifications WHERE id = ? AND user_id = ?').get(id, user.id) as
        NotificationRow | undefined;
      if (!row) throw errors.notFound('Notification');
      if (row.read === null) {
        ctx.db
          .prepare('UPDATE notifications SET read = ? WHERE id = ?')
          .run(new Date(ctx.clock.now()).toISOString(), id);
      }
      return presentNotification(ctx.db.prepare('SELECT * FROM notifications WHERE id = ?').get(id) as NotificationRow);
    },
  );

  app.post(
    '/api/notifications/read-all/',
    {
      schema: {
        summary: "Mark all of the caller's notifications read",
        tags,
        response: { 200: { type: 'object', properties: { marked: { type: 'integer' } } } },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const marked = ctx.db
        .prepare('UPDATE notifications SET read = ? WHERE user_id = ? AND read IS NULL')
        .run(new Date(ctx.clock.now()).toISOString(), user.id).changes;
      return { marked };
    },
  );
}
