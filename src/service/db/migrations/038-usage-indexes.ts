import type { Migration } from './index';

/**
 * Indexes for the quota check, which runs on every upload's first chunk (issue 21, many small
 * files): a user's stored bytes summed from the index alone, without reading each record, and
 * the unfinished uploads found without walking every upload the user ever made. Before them
 * the check cost a row per file the user stored, and 2,000 small files spent a tenth of the
 * service's time in it.
 */
export const m038UsageIndexes: Migration = {
  version: 38,
  name: 'usage-indexes',
  up: `
    DROP INDEX data_files_owner_user;
    CREATE INDEX data_files_owner_user ON data_files (owner_user_id, size);
    CREATE INDEX uploads_unfinished ON uploads (user_id) WHERE complete = 0;
  `,
};
