import type { Migration } from './index';

/**
 * Data records may also be reports the service builds on request (a MultiQC report over a
 * project's or a lane's outputs): `source` gains 'report'. SQLite cannot change a CHECK
 * constraint in place, so the table is rebuilt as its documented ALTER procedure does (new
 * table, copy, drop, rename, indexes), with foreign keys off for it (lanes, samples and uploads
 * point at data_files; they keep pointing at the new table) and checked before the commit.
 */
export const m026ReportData: Migration = {
  version: 26,
  name: 'report-data',
  rebuildsTables: true,
  up: `
    CREATE TABLE data_files_new (
      id INTEGER PRIMARY KEY,
      filename TEXT NOT NULL,
      size INTEGER NOT NULL,
      data_type TEXT NOT NULL,
      checksum TEXT NOT NULL,
      storage_key TEXT NOT NULL,
      owner_user_id INTEGER REFERENCES users(id),
      owner_group_id INTEGER REFERENCES groups(id),
      created TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('upload', 'execution', 'lane', 'report')),
      execution_id INTEGER,
      path TEXT,
      sample_id INTEGER,
      CHECK ((owner_user_id IS NULL) <> (owner_group_id IS NULL))
    ) STRICT;
    INSERT INTO data_files_new (id, filename, size, data_type, checksum, storage_key, owner_user_id,
      owner_group_id, created, source, execution_id, path, sample_id)
      SELECT id, filename, size, data_type, checksum, storage_key, owner_user_id,
        owner_group_id, created, source, execution_id, path, sample_id FROM data_files;
    DROP TABLE data_files;
    ALTER TABLE data_files_new RENAME TO data_files;
    CREATE INDEX data_files_checksum ON data_files (checksum);
    CREATE INDEX data_files_storage ON data_files (storage_key);
    CREATE INDEX data_files_owner_user ON data_files (owner_user_id);
    CREATE INDEX data_files_execution ON data_files (execution_id);
  `,
};
