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

/**
 * On a wire where read 2 names read 1's data id (Flow: `reads1` on every chunk of a lane's read 2,
 * `previous_data` on a sample's; FLOW-WIRE.md §4), read 2 is not runnable until read 1 has ended:
 * started earlier, its chunks held places in the shared send window while waiting for an id, and
 * read 1 got none (a 60 s stall, issue 23). Read 1 completing (or failing: read 2 then ends with
 * it) schedules the queue, which finds read 2 runnable. Only the row's own state decides, so a
 * restart resumes read 2 exactly when its read 1 is in.
 */
export const READ2_WAITS_FOR_READ1 = `NOT (jobs.group_id IS NOT NULL AND jobs.role IN ('multiplexed-read2', 'read2')
  AND EXISTS (SELECT 1 FROM jobs r1 WHERE r1.group_id = jobs.group_id
    AND r1.role = CASE jobs.role WHEN 'read2' THEN 'read1' ELSE 'multiplexed' END
    AND r1.state NOT IN ('completed', 'failed', 'cancelled')))`;

/**
 * Queued read 2s of a profile that the rule above holds back, for the Uploads screen's "waits for
 * read 1" (only asked on a wire that reads in order); `jobId` narrows it to one job.
 */
export function read2sWaiting(db: Database.Database, profileId: string, jobId?: number): Set<number> {
  const rows = sql(
    db,
    `SELECT id FROM jobs WHERE profile_id = ? AND state = 'queued' AND (? IS NULL OR id = ?)
      AND NOT (${READ2_WAITS_FOR_READ1})`,
  ).all(profileId, jobId ?? null, jobId ?? null) as Array<{ id: number }>;
  return new Set(rows.map((r) => r.id));
}

/**
 * Samples and lanes whose files are all in (exported for the test of its query plan): their
 * count of files not completed, kept by the queue database's triggers (version 6), is 0.
 */
export const GROUPS_READY = `SELECT id FROM groups WHERE profile_id = ? AND open_jobs = 0 AND state IN ('uploading', 'creating')`;

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

/**
 * When the next queued or waiting job of a profile may start (ms since epoch), or null. With
 * `readsInOrder`, a read 2 waiting for its read 1 is left out: read 1's end schedules it.
 */
export function nextAttemptAt(db: Database.Database, profileId: string, readsInOrder = false): number | null {
  const row = sql(
    db,
    `SELECT MIN(next_attempt_at) AS t FROM jobs WHERE profile_id = ? AND state IN ('queued', 'waiting')${
      readsInOrder ? ` AND ${READ2_WAITS_FOR_READ1}` : ''
    }`,
  ).get(profileId) as { t: number | null };
  return row.t;
}

/** The network is back: jobs that waited for it go back to the queue. */
export function releaseOfflineJobs(db: Database.Database): void {
  db.prepare(
    `UPDATE jobs SET state = 'queued', waiting_reason = NULL, next_attempt_at = 0 WHERE state = 'waiting' AND waiting_reason = 'offline'`,
  ).run();
}
