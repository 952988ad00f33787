import type { Migration } from './index';

/** Accounts and the refresh tokens issued to them (revocable by jti). */
export const m002Identity: Migration = {
  version: 2,
  name: 'identity',
  up: `
    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      username TEXT NOT NULL UNIQUE COLLATE NOCASE,
      email TEXT NOT NULL,
      name TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      is_admin INTEGER NOT NULL DEFAULT 0,
      can_run_pipelines INTEGER NOT NULL DEFAULT 0,
      disabled INTEGER NOT NULL DEFAULT 0,
      created TEXT NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email <> '';

    CREATE TABLE refresh_tokens (
      jti TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      issued TEXT NOT NULL,
      expires TEXT NOT NULL,
      revoked TEXT
    ) STRICT;
    CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
  `,
};
