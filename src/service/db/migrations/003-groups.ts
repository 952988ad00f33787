import type { Migration } from './index';

/**
 * Groups, memberships (invited, member, admin, each with the permission the inviter chose) and
 * invitations addressed to e-mail addresses that have no account yet.
 */
export const m003Groups: Migration = {
  version: 3,
  name: 'groups',
  up: `
    CREATE TABLE groups (
      id INTEGER PRIMARY KEY,
      slug TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      created TEXT NOT NULL
    ) STRICT;

    CREATE TABLE memberships (
      group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('invited', 'member', 'admin')),
      permission TEXT NOT NULL CHECK (permission IN ('view', 'edit', 'share')),
      invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created TEXT NOT NULL,
      PRIMARY KEY (group_id, user_id)
    ) STRICT;
    CREATE INDEX memberships_user ON memberships (user_id);

    CREATE TABLE pending_invitations (
      group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
      email TEXT NOT NULL COLLATE NOCASE,
      permission TEXT NOT NULL CHECK (permission IN ('view', 'edit', 'share')),
      invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created TEXT NOT NULL,
      PRIMARY KEY (group_id, email)
    ) STRICT;
  `,
};
