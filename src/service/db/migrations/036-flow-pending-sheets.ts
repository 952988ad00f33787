import type { Migration } from './index';

/**
 * Lane sheets uploaded on the Flow mount ahead of their reads (flow-annotation.ts). flowbio
 * uploads the sheet, then the reads, in separate requests; kept here (their bytes in
 * `<data>/flow-sheets/`), a sheet survives a restart of the service between the two.
 * `files` is the JSON array of reads file names the sheet's File columns name.
 */
export const m036FlowPendingSheets: Migration = {
  version: 36,
  name: 'flow-pending-sheets',
  up: `
    CREATE TABLE flow_pending_sheets (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      file TEXT NOT NULL,
      filename TEXT NOT NULL,
      size INTEGER NOT NULL DEFAULT 0,
      accepted INTEGER NOT NULL DEFAULT 0,
      files TEXT NOT NULL DEFAULT '[]',
      created INTEGER NOT NULL,
      used INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX flow_pending_sheets_user ON flow_pending_sheets (user_id, accepted, used);
  `,
};
