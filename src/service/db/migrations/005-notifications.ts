import type { Migration } from './index';

/**
 * The notification outbox: every invitation is recorded here (and also mailed when SMTP is
 * configured). A notification for an address without an account waits with user_id NULL.
 */
export const m005Notifications: Migration = {
  version: 5,
  name: 'notifications',
  up: `
    CREATE TABLE notifications (
      id INTEGER PRIMARY KEY,
      user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      email TEXT NOT NULL COLLATE NOCASE,
      kind TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      data TEXT NOT NULL DEFAULT '{}',
      mail_status TEXT NOT NULL DEFAULT 'not_configured',
      created TEXT NOT NULL,
      read TEXT
    ) STRICT;
    CREATE INDEX notifications_user ON notifications (user_id);
    CREATE INDEX notifications_email ON notifications (email) WHERE user_id IS NULL;
  `,
};
