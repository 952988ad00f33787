/**
 * Each group's count of files not completed (queue database version 6), kept by triggers, from
 * which the scheduler finds the samples and lanes ready to create (GROUPS_READY): after any mix
 * of the queue's own writes it equals the count made from scratch, and the groups found ready
 * are those the question asked before version 6 found; a version 5 file is counted on
 * migration. Real SQLite through the app's JobStore; the mix is seeded, so it is the same on
 * every machine.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/node/sqlite-migrations';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb, QUEUE_MIGRATIONS } from '../../../src/main/core/uploads/queue-db';
import { GROUPS_READY } from '../../../src/main/core/uploads/queue-queries';
import { releaseOfflineJobs } from '../../../src/main/core/uploads/queue-queries';
import { prng } from '../../helpers/prng';
import { tempDir } from '../../helpers/temp';

const STATES = ['queued', 'hashing', 'uploading', 'waiting', 'paused', 'completed', 'failed', 'cancelled'] as const;
const GROUP_STATES = ['uploading', 'creating', 'created', 'failed', 'cancelled'] as const;

/** The question as it was asked before version 6, row by row. */
const READY_BEFORE = `SELECT id FROM groups g WHERE profile_id = ? AND state IN ('uploading', 'creating')
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.group_id = g.id AND j.state <> 'completed') ORDER BY id`;

function expectCountsExact(db: Database.Database, profiles: string[]) {
  const wrong = db
    .prepare(
      `SELECT id, open_jobs, (SELECT COUNT(*) FROM jobs j WHERE j.group_id = g.id AND j.state <> 'completed') AS counted
         FROM groups g WHERE open_jobs <> counted`,
    )
    .all();
  expect(wrong).toEqual([]);
  for (const p of profiles) {
    const ready = (db.prepare(GROUPS_READY).all(p) as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);
    expect(ready).toEqual((db.prepare(READY_BEFORE).all(p) as Array<{ id: number }>).map((r) => r.id));
  }
}

describe("the queue's open files per group", () => {
  const dir = tempDir('queue-open-jobs-');
  afterAll(() => dir.remove());

  it('stays exact through a seeded mix of inserts, state changes, restarts, resets and clears', () => {
    const db = openQueueDb(join(dir.path, 'mix'));
    const store = new JobStore(db);
    const rnd = prng(2026_11_27);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const profiles = ['local', 'remote'];
    let groups: number[] = [];
    const jobs: number[] = [];
    // Groups the queue still holds (a clear removes finished ones).
    const liveGroup = () => {
      groups = groups.filter((g) => store.group(g));
      return groups.length ? pick(groups) : null;
    };
    for (let step = 0; step < 3000; step++) {
      const r = rnd();
      if (r < 0.1 || liveGroup() === null) {
        groups.push(store.insertGroup(pick(profiles), rnd() < 0.8 ? 'sample' : 'lane', `g${step}`, {}).id);
      } else if (r < 0.35) {
        const groupId = rnd() < 0.85 ? liveGroup() : null;
        const row = store.insertJob({
          profileId: pick(profiles),
          sources: [`/runs/f${step}.fastq`],
          filename: `f${step}.fastq`,
          role: 'read1',
          groupId,
          priority: 'normal',
          chunkSize: 1 << 20,
        });
        jobs.push(row.id);
      } else if (r < 0.7 && jobs.length) {
        const id = pick(jobs);
        if (store.job(id)) store.update(id, { state: pick(STATES) });
      } else if (r < 0.75 && jobs.length) {
        const id = pick(jobs);
        if (store.job(id)) store.complete(id, step, `sha${step}`, rnd() < 0.2);
      } else if (r < 0.8 && jobs.length) {
        const id = pick(jobs);
        if (store.job(id)) store.restartJob(id, 'changed on disk');
      } else if (r < 0.85 && jobs.length) {
        // A job moved to another group (the trigger covers it, though the queue does not do it).
        const id = pick(jobs);
        if (store.job(id)) store.update(id, { group_id: rnd() < 0.2 ? null : liveGroup() });
      } else if (r < 0.93) {
        const g = liveGroup();
        if (g !== null) store.updateGroup(g, { state: pick(GROUP_STATES) });
      } else if (r < 0.96) {
        store.resetRunning();
        releaseOfflineJobs(db);
      } else {
        store.clearFinished();
      }
      if (step % 50 === 0) expectCountsExact(db, profiles);
    }
    expectCountsExact(db, profiles);
    // The mix reached every kind of group: some ready, some not.
    const ready = profiles.flatMap((p) => db.prepare(GROUPS_READY).all(p));
    expect(ready.length).toBeGreaterThan(0);
    expect(db.prepare('SELECT COUNT(*) AS n FROM groups WHERE open_jobs > 0').get()).not.toEqual({ n: 0 });
    db.close();
  });

  it("counts the files of a version 5 file when it migrates, and drops its journal's chunk digests", () => {
    const file = join(dir.path, 'v5', 'uploads.sqlite');
    openQueueDb(join(dir.path, 'v5')).close();
    // Made again at version 5, as an app of yesterday left it, with a plate half uploaded.
    const old = new Database(file);
    old.exec('DROP TABLE IF EXISTS jobs; DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS groups;');
    old.exec('DROP TABLE IF EXISTS watchers; DROP TABLE IF EXISTS runs; DROP TABLE IF EXISTS settings;');
    old.exec(`SELECT 1`);
    old.pragma('user_version = 0');
    for (const t of old
      .prepare(
        "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'trigger', 'index') AND name NOT LIKE 'sqlite_%'",
      )
      .all() as Array<{ name: string; type: string }>)
      old.exec(`DROP ${t.type.toUpperCase()} IF EXISTS ${t.name}`);
    migrate(
      old,
      QUEUE_MIGRATIONS.filter((m) => m.version <= 5),
    );
    expect(old.pragma('user_version', { simple: true })).toBe(5);
    const at = '2026-11-26T10:00:00.000Z';
    const group = old.prepare(
      `INSERT INTO groups (profile_id, kind, name, params, state, created, updated) VALUES ('local', 'sample', ?, '{}', 'uploading', ?, ?)`,
    );
    const job = old.prepare(
      `INSERT INTO jobs (profile_id, path, sources, filename, role, group_id, state, priority, file_id, chunk_size, created, updated)
         VALUES ('local', ?, ?, ?, 'read1', ?, ?, 1, ?, 1048576, ?, ?)`,
    );
    const states = [['completed', 'completed'], ['completed', 'uploading'], ['queued', 'failed'], []];
    states.forEach((files, i) => {
      const g = Number(group.run(`S${i}`, at, at).lastInsertRowid);
      files.forEach((state, k) =>
        job.run(`/r/${i}_${k}`, `["/r/${i}_${k}"]`, `${i}_${k}`, g, state, `f${i}${k}`, at, at),
      );
    });
    // The journal of the job uploading, written when it held each chunk's own sha256.
    const uploading = old.prepare(`SELECT id FROM jobs WHERE state = 'uploading'`).get() as { id: number };
    old
      .prepare('INSERT INTO chunks (job_id, idx, sha256, size) VALUES (?, 0, ?, 1048576)')
      .run(uploading.id, 'a'.repeat(64));
    old.close();

    const db = openQueueDb(join(dir.path, 'v5'));
    expect(db.pragma('user_version', { simple: true })).toBe(QUEUE_MIGRATIONS.at(-1)!.version);
    // Version 7: a chunk's digest is the file's up to its end; the old rows would not match.
    expect(db.prepare('SELECT COUNT(*) AS n FROM chunks').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT name, open_jobs FROM groups ORDER BY id').all()).toEqual([
      { name: 'S0', open_jobs: 0 },
      { name: 'S1', open_jobs: 1 },
      { name: 'S2', open_jobs: 2 },
      { name: 'S3', open_jobs: 0 },
    ]);
    expectCountsExact(db, ['local']);
    db.close();
  });
});
