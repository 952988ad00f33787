import type { Migration } from './index';

/**
 * Data records, chunked uploads in progress, samples and lanes. Stored bytes live on disk in
 * a content-addressed store (storage_key is the sha256); several records, even of different
 * owners, may share one stored file.
 */
export const m010Data: Migration = {
  version: 10,
  name: 'data',
  up: `
    CREATE TABLE data_files (
      id INTEGER PRIMARY KEY,
      filename TEXT NOT NULL,
      size INTEGER NOT NULL,
      data_type TEXT NOT NULL,
      checksum TEXT NOT NULL,
      storage_key TEXT NOT NULL,
      owner_user_id INTEGER REFERENCES users(id),
      owner_group_id INTEGER REFERENCES groups(id),
      created TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('upload', 'execution', 'lane')),
      execution_id INTEGER,
      path TEXT,
      sample_id INTEGER,
      CHECK ((owner_user_id IS NULL) <> (owner_group_id IS NULL))
    ) STRICT;
    CREATE INDEX data_files_checksum ON data_files (checksum);
    CREATE INDEX data_files_storage ON data_files (storage_key);
    CREATE INDEX data_files_owner_user ON data_files (owner_user_id);
    CREATE INDEX data_files_execution ON data_files (execution_id);

    CREATE TABLE uploads (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      file_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      total_chunks INTEGER NOT NULL,
      total_size INTEGER,
      checksum TEXT,
      chunk_size INTEGER,
      data_id INTEGER REFERENCES data_files(id) ON DELETE SET NULL,
      complete INTEGER NOT NULL DEFAULT 0,
      created TEXT NOT NULL,
      updated TEXT NOT NULL,
      UNIQUE (user_id, file_id)
    ) STRICT;
    CREATE INDEX uploads_updated ON uploads (updated);

    CREATE TABLE upload_chunks (
      upload_id INTEGER NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT,
      spool TEXT,
      PRIMARY KEY (upload_id, idx)
    ) STRICT;

    CREATE TABLE lanes (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('demultiplexing', 'complete', 'failed')),
      progress REAL NOT NULL DEFAULT 0,
      error TEXT,
      read1_id INTEGER NOT NULL REFERENCES data_files(id),
      read2_id INTEGER REFERENCES data_files(id),
      annotation TEXT NOT NULL,
      mismatches INTEGER NOT NULL,
      warnings TEXT NOT NULL DEFAULT '[]',
      read_counts TEXT,
      unknown_barcodes TEXT,
      total_reads INTEGER,
      undetermined_reads INTEGER,
      owner_user_id INTEGER REFERENCES users(id),
      owner_group_id INTEGER REFERENCES groups(id),
      created TEXT NOT NULL,
      finished TEXT,
      CHECK ((owner_user_id IS NULL) <> (owner_group_id IS NULL))
    ) STRICT;

    CREATE TABLE samples (
      id INTEGER PRIMARY KEY,
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
    CREATE UNIQUE INDEX samples_read1 ON samples (read1_id);
    CREATE UNIQUE INDEX samples_read2 ON samples (read2_id) WHERE read2_id IS NOT NULL;
    CREATE INDEX samples_owner_user ON samples (owner_user_id);
    CREATE INDEX samples_lane ON samples (lane_id);
  `,
};
