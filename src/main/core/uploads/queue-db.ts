/**
 * The upload queue's own SQLite file in the state folder (WAL; numbered migrations applied in
 * order by the shared runner, src/node/sqlite-migrations.ts, and never edited once shipped).
 * Only the process running the queue opens it.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { applyPragmas, migrate, type Migration } from '../../../node/sqlite-migrations';

/** Version n is the queue file's user_version n, as before the runner was shared (exported for the migration tests). */
export const QUEUE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'jobs, chunks, groups, indexes, settings',
    up: `CREATE TABLE jobs (
     id INTEGER PRIMARY KEY,
     profile_id TEXT NOT NULL,
     path TEXT NOT NULL,
     sources TEXT NOT NULL,          -- JSON array of files read in order (Nanopore batches join)
     filename TEXT NOT NULL,
     role TEXT NOT NULL,
     group_id INTEGER NULL REFERENCES groups(id),
     state TEXT NOT NULL,
     priority INTEGER NOT NULL,      -- 0 high, 1 normal, 2 low
     file_id TEXT NOT NULL,
     chunk_size INTEGER NOT NULL,
     size INTEGER NULL,
     mtime_ms REAL NULL,
     bytes_sent INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     restarts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL DEFAULT 0,
     waiting_reason TEXT NULL,
     error TEXT NULL,
     data_id INTEGER NULL,
     checksum TEXT NULL,
     deduplicated INTEGER NOT NULL DEFAULT 0,
     created TEXT NOT NULL,
     updated TEXT NOT NULL
   );
   CREATE INDEX jobs_state ON jobs(profile_id, state, priority, id);
   -- The journal: one row per chunk the service acknowledged, written with bytes_sent.
   CREATE TABLE chunks (
     job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
     idx INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     size INTEGER NOT NULL,
     PRIMARY KEY (job_id, idx)
   );
   CREATE TABLE groups (
     id INTEGER PRIMARY KEY,
     profile_id TEXT NOT NULL,
     kind TEXT NOT NULL,             -- sample | lane
     name TEXT NOT NULL,
     params TEXT NOT NULL,           -- JSON: metadata, project, annotation path, ignore_warnings
     state TEXT NOT NULL,            -- uploading | creating | created | failed | cancelled
     created_id INTEGER NULL,
     error TEXT NULL,
     created TEXT NOT NULL,
     updated TEXT NOT NULL
   );
   CREATE TABLE hash_index (
     profile_id TEXT NOT NULL,
     checksum TEXT NOT NULL,
     data_id INTEGER NOT NULL,
     PRIMARY KEY (profile_id, checksum)
   );
   CREATE TABLE file_index (
     path TEXT NOT NULL,
     size INTEGER NOT NULL,
     mtime_ms REAL NOT NULL,
     checksum TEXT NOT NULL,
     PRIMARY KEY (path, size, mtime_ms)
   );
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
  {
    version: 2,
    name: 'watchers and runs',
    up: `CREATE TABLE watchers (
     id INTEGER PRIMARY KEY,
     path TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     auto_upload INTEGER NOT NULL,
     polling INTEGER NOT NULL,
     settle_seconds INTEGER NOT NULL,
     enabled INTEGER NOT NULL DEFAULT 1,
     error TEXT NULL,
     last_scan TEXT NULL
   );
   CREATE TABLE runs (
     id INTEGER PRIMARY KEY,
     watcher_id INTEGER NOT NULL REFERENCES watchers(id) ON DELETE CASCADE,
     path TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     kind TEXT NOT NULL,
     state TEXT NOT NULL,
     timeline TEXT NOT NULL,         -- JSON [{state, at, note}]
     error TEXT NULL,
     proposal TEXT NULL,
     group_ids TEXT NOT NULL DEFAULT '[]',
     job_ids TEXT NOT NULL DEFAULT '[]',
     dismissed INTEGER NOT NULL DEFAULT 0,
     last_change REAL NOT NULL DEFAULT 0,
     updated TEXT NOT NULL
   );`,
  },
  {
    version: 3,
    name: 'watcher sample metadata',
    up: `ALTER TABLE watchers ADD COLUMN sample_metadata TEXT NOT NULL DEFAULT '{}';`,
  },
  {
    version: 4,
    // A watcher's pipeline launch; a run's launch journal (launching before the request).
    name: 'watcher launch, run launch journal',
    up: `ALTER TABLE watchers ADD COLUMN launch TEXT NULL;
   ALTER TABLE runs ADD COLUMN launch_state TEXT NULL;
   ALTER TABLE runs ADD COLUMN execution_id INTEGER NULL;`,
  },
  {
    version: 5,
    // The scheduler asks at every pass which samples and lanes have all their files in: each
    // open group read the whole jobs table, and every group ever made was scanned. 500 samples
    // queued at once spent 2 s of the core's time there, 2,000 half a minute (issue 21).
    name: 'jobs by group, groups by state',
    up: `CREATE INDEX jobs_group ON jobs(group_id) WHERE group_id IS NOT NULL;
   CREATE INDEX groups_state ON groups(profile_id, state);`,
  },
  {
    version: 6,
    // Even through those indexes the question visited every open group: 2 ms a pass with a plate
    // of 2,000 samples queued, over a second of the core's time while it uploaded. Each group
    // now counts its files not yet completed, kept by triggers in the same transaction as the
    // job's change, and the ready ones are found through an index on that count.
    name: 'open files per group',
    up: `ALTER TABLE groups ADD COLUMN open_jobs INTEGER NOT NULL DEFAULT 0;
   UPDATE groups SET open_jobs = (SELECT COUNT(*) FROM jobs j WHERE j.group_id = groups.id AND j.state <> 'completed');
   CREATE TRIGGER jobs_open_insert AFTER INSERT ON jobs
     WHEN NEW.group_id IS NOT NULL AND NEW.state <> 'completed'
     BEGIN UPDATE groups SET open_jobs = open_jobs + 1 WHERE id = NEW.group_id; END;
   CREATE TRIGGER jobs_open_delete AFTER DELETE ON jobs
     WHEN OLD.group_id IS NOT NULL AND OLD.state <> 'completed'
     BEGIN UPDATE groups SET open_jobs = open_jobs - 1 WHERE id = OLD.group_id; END;
   CREATE TRIGGER jobs_open_update AFTER UPDATE OF state, group_id ON jobs
     WHEN (OLD.state <> 'completed') <> (NEW.state <> 'completed') OR OLD.group_id IS NOT NEW.group_id
     BEGIN
       UPDATE groups SET open_jobs = open_jobs - 1 WHERE id = OLD.group_id AND OLD.state <> 'completed';
       UPDATE groups SET open_jobs = open_jobs + 1 WHERE id = NEW.group_id AND NEW.state <> 'completed';
     END;
   CREATE INDEX groups_ready ON groups(profile_id, open_jobs, state);`,
  },
  {
    version: 7,
    // The journal's `sha256` of a chunk is now that of the file from its start to the chunk's
    // end, taken from the file's running hash (job-runner.ts): hashing each chunk on its own as
    // well cost the client a second pass over every byte. Rows written before would no longer
    // match and restart their jobs as changed files; without them, a job in flight resumes from
    // what the service says it holds, and the file's checksum is still checked at its end.
    name: 'chunk journal of file prefixes',
    up: `DELETE FROM chunks;`,
  },
];

/** Opens (and migrates) the queue database in the state folder. */
export function openQueueDb(stateDir: string, file = 'uploads.sqlite'): Database.Database {
  mkdirSync(stateDir, { recursive: true });
  const db = new Database(join(stateDir, file));
  applyPragmas(db);
  migrate(db, QUEUE_MIGRATIONS);
  return db;
}
