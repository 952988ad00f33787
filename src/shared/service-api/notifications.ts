/** The caller's notifications: GET /api/notifications, and marking them read. */
import { Type, type Static } from 'typebox';
import { Page, PageQueryProperties } from './page';
import { JsonObject, StringEnum } from './resource';

/** How mailing a notification went: no SMTP configured, on its way, sent, or failed. */
export const MAIL_STATUSES = ['not_configured', 'sending', 'sent', 'failed'] as const;
export const MailStatus = StringEnum(MAIL_STATUSES);
export type MailStatus = Static<typeof MailStatus>;

/** One notification: an invitation, an execution that ended. */
export const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  data: JsonObject(),
  mail_status: MailStatus,
  created: Type.String(),
  read: Type.Boolean(),
});
export type Notification = Static<typeof Notification>;

/** GET /api/notifications: a page, and `unread=true` for unread ones only. */
export const NotificationsQuery = Type.Object(
  { ...PageQueryProperties, unread: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

/** A page of notifications, newest first, with how many are unread in all. */
export const NotificationPage = Type.Object({ ...Page(Notification).properties, unread_count: Type.Integer() });
export type NotificationPage = Static<typeof NotificationPage>;

/** POST /api/notifications/read-all/: how many were marked. */
export const MarkedRead = Type.Object({ marked: Type.Integer() });
export type MarkedRead = Static<typeof MarkedRead>;
