/**
 * The upload queue's launches and completions share one commit per turn of the event loop
 * (JobStore.inTurn, issue 21). Real SQLite in a temporary folder, read back through a second
 * connection: the store's own reads see a turn's writes at once, other connections once the
 * turn ends; a caller's transaction takes them in; the queue's stop commits them before the
 * database closes; a commit that fails is rolled back whole and told; and a process that dies
 * inside the turn leaves the jobs as they were.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { tempDir } from '../../helpers/temp';

const endOfTurn = () => new Promise<void>((r) => setImmediate(r));

describe('the queue database commits once per turn', () => {
  const dir = tempDir('job-store-turn-');
  afterAll(() => dir.remove());
  let n = 0;
  function stores() {
    const state = `${dir.path}/state-${n++}`;
    const db = openQueueDb(state);
    const store = new JobStore(db);
    const jobs = [0, 1, 2].map((i) =>
      store.insertJob({
        profileId: 'p',
        sources: [`/runs/f${i}.fastq`],
        filename: `f${i}.fastq`,
        role: 'data',
        groupId: null,
        priority: 'normal',
        chunkSize: 8 << 20,
      }),
    );
    const reader = new Database(`${state}/uploads.sqlite`, { readonly: true });
    const states = () =>
      (reader.prepare('SELECT state FROM jobs ORDER BY id').all() as Array<{ state: string }>).map((r) => r.state);
    return { db, store, jobs, states, state, close: () => reader.close() };
  }

  it('shows a turn’s launches and completion to the store at once, to others when the turn ends', async () => {
    const { db, store, jobs, states, close } = stores();
    const a = store.updateKnown(jobs[0]!, { state: 'uploading', size: 10, mtime_ms: 1 });
    store.updateKnown(jobs[1]!, { state: 'uploading', size: 10, mtime_ms: 1 });
    store.complete(a.id, 7, 'c'.repeat(64), false, a);
    expect(store.runnable('p', Date.now(), 8).map((r) => r.id)).toEqual([jobs[2]!.id]);
    // What the small-file scheduler sizes a queued file by, from the same turn.
    store.updateKnown(jobs[2]!, { size: 5 });
    expect(store.runnableHeads('p', Date.now(), 8)).toEqual([
      { id: jobs[2]!.id, sources: JSON.stringify(['/runs/f2.fastq']), size: 5, chunk_size: 8 << 20 },
    ]);
    expect(store.job(a.id)).toMatchObject({ state: 'completed', data_id: 7 });
    expect(states()).toEqual(['queued', 'queued', 'queued']);
    await endOfTurn();
    expect(states()).toEqual(['completed', 'uploading', 'queued']);
    expect(db.inTransaction).toBe(false);
    close();
  });

  it("joins a caller's transaction, and commits at once when asked (before the database closes)", () => {
    const { db, store, jobs, states, close } = stores();
    db.transaction(() => store.updateKnown(jobs[0]!, { state: 'uploading' }))();
    expect(states()[0]).toBe('uploading');
    store.updateKnown(jobs[1]!, { state: 'uploading' });
    store.commitTurn();
    expect(states()).toEqual(['uploading', 'uploading', 'queued']);
    close();
  });

  it("puts a group's creation and a run's launch on disk before their requests, with the turn before them", () => {
    const { db, store, jobs, states, state, close } = stores();
    const committed = new Database(`${state}/uploads.sqlite`, { readonly: true });
    const group = store.insertGroup('p', 'sample', 'S1', {});
    store.updateKnown(jobs[0]!, { state: 'uploading' });
    store.updateGroup(group.id, { state: 'creating' });
    expect(committed.prepare('SELECT state FROM groups WHERE id = ?').get(group.id)).toEqual({ state: 'creating' });
    expect(states()[0]).toBe('uploading');
    const runs = new RunStore(db);
    const watcher = runs.addWatcher({
      path: '/runs',
      kind: 'illumina',
      auto_upload: true,
      polling: false,
      settle_seconds: 1,
    });
    const run = runs.insertRun(watcher.id, '/runs/r1', 'r1', 'illumina');
    store.updateKnown(jobs[1]!, { state: 'uploading' });
    runs.setLaunch(run.id, 'launching');
    expect(committed.prepare('SELECT launch_state FROM runs WHERE id = ?').get(run.id)).toEqual({
      launch_state: 'launching',
    });
    expect(states()[1]).toBe('uploading');
    expect(db.inTransaction).toBe(false);
    committed.close();
    close();
  });

  it('tells its listeners when a turn fails to commit, rolled back whole', async () => {
    const { db, store, jobs, states, close } = stores();
    const lost: string[] = [];
    store.onTurnLost((err) => lost.push(err.message));
    store.updateKnown(jobs[0]!, { state: 'uploading' });
    // The injected fault: a deferred foreign key broken inside the turn fails its commit.
    db.pragma('defer_foreign_keys = ON');
    db.prepare('UPDATE jobs SET group_id = -1 WHERE id = ?').run(jobs[1]!.id);
    await endOfTurn();
    expect(lost).toEqual(['FOREIGN KEY constraint failed']);
    expect(states()).toEqual(['queued', 'queued', 'queued']);
    expect(db.inTransaction).toBe(false);
    // The next turn commits as usual.
    store.updateKnown(jobs[2]!, { state: 'uploading' });
    await endOfTurn();
    expect(states()).toEqual(['queued', 'queued', 'uploading']);
    close();
  });

  it('loses only the turn when the process dies inside it: the jobs are as before', async () => {
    const { db, store, jobs, state, close } = stores();
    store.updateKnown(jobs[0]!, { state: 'uploading', size: 10, mtime_ms: 1 });
    close();
    // A death before the commit: the connection goes without committing.
    db.close();
    await endOfTurn();
    const again = new JobStore(openQueueDb(state));
    expect(again.job(jobs[0]!.id)).toMatchObject({ state: 'queued', size: null });
    again.db.close();
  });
});
