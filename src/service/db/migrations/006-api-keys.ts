import type { Migration } from './index';

/**
 * API keys: long-lived, named, revocable credentials of one user. Only a SHA-256 of the key is
 * kept; `lookup` (the first characters of the secret, also shown to the owner) finds the row,
 * and the hash is then compared in constant time. Revoked keys stay listed (and audited).
 */
export const m006ApiKeys: Migration = {
  version: 6,
  name: 'api-keys',
  up: `
    CREATE TABLE api_keys (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      lookup TEXT NOT NULL UNIQUE,
      hash TEXT NOT NULL,
      created TEXT NOT NULL,
      last_used TEXT NULL,
      expires TEXT NULL,
      revoked TEXT NULL,
      revoked_by INTEGER NULL REFERENCES users(id) ON DELETE SET NULL
    ) STRICT;
    CREATE INDEX api_keys_user ON api_keys (user_id, id);
  `,
};
