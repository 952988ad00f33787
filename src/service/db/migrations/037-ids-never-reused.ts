import type { Migration } from './index';

/**
 * Ids of deleted samples and data records are never handed out again (AUTOINCREMENT). SQLite
 * gives a new row the largest id plus one, so deleting the newest sample gave its id to the
 * next one, and links that outlive a row by design (an execution's samples, a lane's
 * undetermined reads, an execution's recorded inputs) attached themselves to a stranger: the
 * execution named the new sample, sharing it "with reads and results" took the old run along,
 * and a re-run ran on it (found by the stateful property suite). Rebuilt as 026 rebuilt
 * data_files (new table, copy, drop, rename, indexes; foreign keys off, checked at the end).
 */
export const m037IdsNeverReused: Migration = {
  version: 37,
  name: 'ids-never-reused',
  rebuildsTables: true,
  up: `
    CREATE TABLE data_files_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
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

    CREATE TABLE samples_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      read1_id INTEGER NOT NULL REFERENCES data_files(id),
      read2_id INTEGER REFERENCES data_files(id),
      metadata TEXT NOT NULL DEFAULT '{}',
      owner_user_id INTEGER REFERENCES users(id),
      owner_group_id INTEGER REFERENCES groups(id),
      lane_id INTEGER REFERENCES lanes(id) ON DELETE SET NULL,
      created TEXT NOT NULL,
      updated TEXT NOT NULL,
      CHECK ((owner_user_id IS NULL) <> (owner_group_id IS NULL))
    ) STRICT;
    INSERT INTO samples_new (id, name, read1_id, read2_id, metadata, owner_user_id, owner_group_id,
      lane_id, created, updated)
      SELECT id, name, read1_id, read2_id, metadata, owner_user_id, owner_group_id,
        lane_id, created, updated FROM samples;
    DROP TABLE samples;
    ALTER TABLE samples_new RENAME TO samples;
    CREATE UNIQUE INDEX samples_read1 ON samples (read1_id);
    CREATE UNIQUE INDEX samples_read2 ON samples (read2_id) WHERE read2_id IS NOT NULL;
    CREATE INDEX samples_owner_user ON samples (owner_user_id);
    CREATE INDEX samples_lane ON samples (lane_id);
  `,
};
