/** What the API shows of a notification. */
import type { MailStatus, Notification } from '../../shared/service-api/notifications';
import type { NotificationRow } from './notifications.store';

/** A notification row as the API shows it. */
export function presentNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    body: row.body,
    data: JSON.parse(row.data) as Record<string, unknown>,
    mail_status: row.mail_status as MailStatus,
    created: row.created,
    read: row.read !== null,
  };
}
