/**
 * The queue's overall progress from JobStore.totalsRows (issue 21: completed jobs add their
 * bytes through one SQL sum instead of being read row by row) equals the overall progress of
 * every row read whole, as the Uploads screen and `laneway upload` showed it before. Real
 * SQLite and real source files in a temporary folder; jobs in every state, completed ones with
 * and without a recorded size, a cancelled one, and a running one with live progress.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { ProgressTracker } from '../../../src/main/core/uploads/progress';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { overallProgress } from '../../../src/main/core/uploads/queue-report';
import { tempDir } from '../../helpers/temp';

describe('the queue totals', () => {
  const dir = tempDir('queue-totals-');
  afterAll(() => dir.remove());

  it('are the same summed in SQL as read row by row', () => {
    const store = new JobStore(openQueueDb(join(dir.path, 'state')));
    const progress = new ProgressTracker(() => 1_000);
    const job = (i: number, bytes: number) => {
      const path = join(dir.path, `f${i}.fastq`);
      writeFileSync(path, Buffer.alloc(bytes, 65));
      return store.insertJob({
        profileId: 'p',
        sources: [path],
        filename: `f${i}.fastq`,
        role: 'data',
        groupId: null,
        priority: 'normal',
        chunkSize: 8 << 20,
      });
    };
    const sized = job(0, 100);
    const unsized = job(1, 2_000);
    const running = job(2, 30_000);
    const failed = job(3, 400);
    const cancelled = job(4, 5_000);
    const paused = job(5, 60);
    const queued = job(6, 7_000);
    const dedup = job(7, 800);
    store.complete(sized.id, 1, 'a'.repeat(64), false, store.updateKnown(sized, { state: 'uploading', size: 100 }));
    // Completed without a recorded size (as a duplicate found by its checksum can be): its
    // sources' size counts, read from the file as before.
    store.update(unsized.id, { state: 'completed', data_id: 2 });
    store.updateKnown(running, { state: 'uploading', size: 30_000, bytes_sent: 8_000 });
    progress.begin(running.id, 8_000, 30_000);
    progress.add(running.id, 4_000);
    store.update(failed.id, { state: 'failed', error: 'refused', bytes_sent: 100 });
    store.update(cancelled.id, { state: 'cancelled' });
    store.update(paused.id, { state: 'paused', size: 60, bytes_sent: 20 });
    store.update(queued.id, { waiting_reason: 'token-refresh' });
    store.complete(dedup.id, 3, 'b'.repeat(64), true, store.updateKnown(dedup, { state: 'uploading', size: 800 }));

    const extra = { offline: false, scheduled: false };
    const whole = overallProgress(store.jobs(), progress, extra);
    const { open, completedBytes, completedUnsized } = store.totalsRows();
    expect(open.map((j) => j.id)).toEqual([running, failed, cancelled, paused, queued].map((j) => j.id));
    expect(completedUnsized.map((j) => j.id)).toEqual([unsized.id]);
    expect(completedBytes).toBe(900);
    expect(overallProgress([...open, ...completedUnsized], progress, extra, completedBytes)).toEqual(whole);
    // The figures themselves: every file but the cancelled one in the total; the running one's
    // live bytes, the failed and paused ones' recorded bytes and the completed ones whole in `sent`.
    expect(whole).toMatchObject({
      bytes_total: 100 + 2_000 + 30_000 + 400 + 60 + 7_000 + 800,
      bytes_sent: 100 + 2_000 + 12_000 + 100 + 20 + 0 + 800,
      jobs_active: 1,
      jobs_queued: 1,
      jobs_failed: 1,
      paused: true,
      waiting_reason: 'token-refresh',
    });
  });
});
