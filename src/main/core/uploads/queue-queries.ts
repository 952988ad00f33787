/** The scheduler's questions to the queue database, one function each. */
import type Database from 'better-sqlite3';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A statement prepared once per database: the scheduler asks these after every file. */
function sql(db: Database.Database, text: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let st = cache.get(text);
  if (!st) cache.set(text, (st = db.prepare(text)));
  return st;
}

const GROUPS_READY = `SELECT id FROM groups g WHERE profile_id = ? AND state IN ('uploading', 'creating')
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.group_id = g.id AND j.state <> 'completed')`;

/** Jobs of a profile that still want to run (queued, running or waiting). */
export function busyJobCount(db: Database.Database, profileId: string): number {
  const row = sql(
    db,
    `SELECT COUNT(*) AS n FROM jobs WHERE profile_id = ? AND state IN ('queued', 'hashing', 'uploading', 'waiting')`,
  ).get(profileId) as { n: number };
  return row.n;
}

/** Groups whose files are all uploaded but whose sample or lane is not created yet. */
export function groupsReadyToCreate(db: Database.Database, profileId: string): number[] {
  return (sql(db, GROUPS_READY).all(profileId) as Array<{ id: number }>).map((r) => r.id);
}

/** When the next queued or waiting job of a profile may start (ms since epoch), or null. */
export function nextAttemptAt(db: Database.Database, profileId: string): number | null {
  const row = sql(
    db,
    `SELECT MIN(next_attempt_at) AS t FROM jobs WHERE profile_id = ? AND state IN ('queued', 'waiting')`,
  ).get(profileId) as { t: number | null };
  return row.t;
}

/** The network is back: jobs that waited for it go back to the queue. */
export function releaseOfflineJobs(db: Database.Database): void {
  db.prepare(
    `UPDATE jobs SET state = 'queued', waiting_reason = NULL, next_attempt_at = 0 WHERE state = 'waiting' AND waiting_reason = 'offline'`,
  ).run();
}
