/** The endpoints of service/notifications/notifications.routes.ts. */
import { op } from '../endpoint';
import { MarkedRead, Notification, NotificationPage, NotificationsQuery } from '../notifications';
import { IdParams } from '../resource';

export const getNotifications = op({
  method: 'GET',
  path: '/api/notifications',
  operationId: 'getNotifications',
  summary: "The caller's notifications, newest first (unread=true for unread only)",
  tags: ['notifications'],
  query: NotificationsQuery,
  response: { 200: NotificationPage },
});

export const postNotificationsByIdRead = op({
  method: 'POST',
  path: '/api/notifications/:id/read/',
  operationId: 'postNotificationsByIdRead',
  summary: 'Mark one notification read',
  tags: ['notifications'],
  params: IdParams,
  response: { 200: Notification },
});

export const postNotificationsReadAll = op({
  method: 'POST',
  path: '/api/notifications/read-all/',
  operationId: 'postNotificationsReadAll',
  summary: "Mark all of the caller's notifications read",
  tags: ['notifications'],
  response: { 200: MarkedRead },
});
