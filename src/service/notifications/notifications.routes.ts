/** The caller's notifications (invitations and the like), newest first, and marking them read. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { MarkedRead, Notification, NotificationPage, NotificationsQuery } from '../../shared/service-api/notifications';
import { IdParams } from '../../shared/service-api/resource';
import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { readNotification } from './notifications.commands';
import { presentNotification } from './notifications.presenter';
import { markAllRead, notificationsPage, unreadCount } from './notifications.store';

/** Registers /api/notifications routes. */
export function notificationsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['notifications'];

  app.get(
    '/api/notifications',
    {
      schema: {
        operationId: 'getNotifications',
        summary: "The caller's notifications, newest first (unread=true for unread only)",
        tags,
        querystring: NotificationsQuery,
        response: { 200: NotificationPage },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const page = mapPage(notificationsPage(ctx.db, user.id, request.query), presentNotification);
      return { ...page, unread_count: unreadCount(ctx.db, user.id) };
    },
  );

  app.post(
    '/api/notifications/:id/read/',
    {
      schema: {
        operationId: 'postNotificationsByIdRead',
        summary: 'Mark one notification read',
        tags,
        params: IdParams,
        response: { 200: Notification },
      },
    },
    async (request) => presentNotification(readNotification(ctx, requireUser(request).id, request.params.id)),
  );

  app.post(
    '/api/notifications/read-all/',
    {
      schema: {
        operationId: 'postNotificationsReadAll',
        summary: "Mark all of the caller's notifications read",
        tags,
        response: { 200: MarkedRead },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { marked: markAllRead(ctx.db, user.id, new Date(ctx.clock.now()).toISOString()) };
    },
  );
}
