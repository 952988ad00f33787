import type { Migration } from './index';

/** Installation facts (id, creation time) that every later area can rely on. */
export const m001Base: Migration = {
  version: 1,
  name: 'base',
  up: `
    CREATE TABLE installation (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
  `,
};
