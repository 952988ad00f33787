/** The caller's notifications (invitations and the like), newest first, and marking them read. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { requireUser } from '../auth/authenticate';
import { readNotification } from './notifications.commands';
import { presentNotification } from './notifications.presenter';
import { markAllRead, notificationsPage, unreadCount } from './notifications.store';
import {
  getNotifications,
  postNotificationsByIdRead,
  postNotificationsReadAll,
} from '../../shared/service-api/endpoints/notifications';
import { serve } from '../http/serve-endpoint';

/** Registers /api/notifications routes. */
export function notificationsRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  serve(app, getNotifications, async (request) => {
    const user = requireUser(request);
    const page = mapPage(notificationsPage(ctx.db, user.id, request.query), presentNotification);
    return { ...page, unread_count: unreadCount(ctx.db, user.id) };
  });

  serve(app, postNotificationsByIdRead, async (request) =>
    presentNotification(readNotification(ctx, requireUser(request).id, request.params.id)),
  );

  serve(app, postNotificationsReadAll, async (request) => {
    const user = requireUser(request);
    return { marked: markAllRead(ctx.db, user.id, new Date(ctx.clock.now()).toISOString()) };
  });
}
