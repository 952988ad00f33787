import type { Migration } from './index';

/**
 * Webhooks: URLs a user registers to hear when their executions end, each with its own signing
 * secret, and the delivery log (one row per event sent to a webhook, with every attempt). A
 * delivery still pending when the service stops is sent at the next start.
 */
export const m032Webhooks: Migration = {
  version: 32,
  name: 'webhooks',
  up: `
    CREATE TABLE webhooks (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      secret TEXT NOT NULL,
      events TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 1,
      created TEXT NOT NULL
    ) STRICT;
    CREATE INDEX webhooks_user ON webhooks (user_id);

    CREATE TABLE webhook_deliveries (
      id INTEGER PRIMARY KEY,
      webhook_id INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event TEXT NOT NULL,
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      attempt_log TEXT NOT NULL DEFAULT '[]',
      next_attempt_at TEXT NULL,
      created TEXT NOT NULL,
      finished TEXT NULL
    ) STRICT;
    CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
    CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (status) WHERE status = 'pending';
  `,
};
