import type { Migration } from './index';

/**
 * The audit log: who created, shared, ran, cancelled, downloaded and deleted what, and when.
 * Append-only by construction: triggers refuse every UPDATE and DELETE, so neither the API nor
 * a bug in a command can rewrite history. Actors and resources are kept by name as well as id
 * (no foreign keys), so an entry stays readable after its user or resource is gone.
 */
export const m030AuditLog: Migration = {
  version: 30,
  name: 'audit log',
  up: `
    CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      user_id INTEGER NULL,
      username TEXT NULL,
      action TEXT NOT NULL,
      resource_kind TEXT NOT NULL,
      resource_id INTEGER NULL,
      resource_name TEXT NULL,
      details TEXT NOT NULL DEFAULT '{}'
    ) STRICT;
    CREATE INDEX audit_log_at ON audit_log (at, id);
    CREATE INDEX audit_log_user ON audit_log (username, id);
    CREATE INDEX audit_log_action ON audit_log (action, id);
    CREATE INDEX audit_log_resource ON audit_log (resource_kind, resource_id);

    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
  `,
};
