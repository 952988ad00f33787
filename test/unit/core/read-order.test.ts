/**
 * The queue's runnable query on a Flow profile (issue 23): read 2 of a lane or sample is not
 * runnable until its read 1 has ended, and after a restart only the rows' states decide — a read 2
 * whose read 1 finished resumes, one whose read 1 did not waits. A Laneway profile keeps sending
 * both reads at once (its lane is made after both are in). Real SQLite in a temp folder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JobStore } from '../../../src/main/core/uploads/job-store';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { nextAttemptAt, read2sWaiting } from '../../../src/main/core/uploads/queue-queries';
import type { JobRole } from '../../../src/shared/desktop-api/contract';
import { tempDir } from '../../helpers/temp';

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

function storeWithGroup(kind: 'lane' | 'sample', roles: [JobRole, JobRole]) {
  const dir = tempDir('laneway-read-order-');
  dirs.push(dir);
  const db = openQueueDb(dir.path);
  const store = new JobStore(db);
  const group = store.insertGroup('p', kind, 'G', {});
  const [read1, read2] = roles.map((role) =>
    store.insertJob({
      profileId: 'p',
      sources: [`/reads/${role}.fastq`],
      filename: `${role}.fastq`,
      role,
      groupId: group.id,
      priority: 'normal',
      chunkSize: 1024,
    }),
  );
  // A loose file is never held back.
  const loose = store.insertJob({
    profileId: 'p',
    sources: ['/reads/other.fastq'],
    filename: 'other.fastq',
    role: 'read2',
    groupId: null,
    priority: 'normal',
    chunkSize: 1024,
  });
  const ids = (ordered: boolean) => {
    const at = Date.now();
    const rows = store.runnable('p', at, 10, ordered).map((r) => r.id);
    // The small-file scheduler's light query must pick the same jobs, in the same order.
    expect(store.runnableHeads('p', at, 10, ordered).map((h) => h.id)).toEqual(rows);
    return rows;
  };
  return { db, store, read1: read1!.id, read2: read2!.id, loose: loose.id, ids };
}

describe('read 2 waits for read 1 on a wire that needs its id', () => {
  it.each([
    ['lane', ['multiplexed', 'multiplexed-read2']],
    ['sample', ['read1', 'read2']],
  ] as const)('%s: read 2 is runnable only once read 1 completed, failed or was cancelled', (kind, roles) => {
    const { db, store, read1, read2, loose, ids } = storeWithGroup(kind, [...roles]);
    expect(ids(false)).toEqual([read1, read2, loose]);
    expect(ids(true)).toEqual([read1, loose]);
    // What the Uploads screen shows as "waits for read 1": exactly the read 2 held back.
    expect([...read2sWaiting(db, 'p')]).toEqual([read2]);
    expect([...read2sWaiting(db, 'p', read2)]).toEqual([read2]);
    expect([...read2sWaiting(db, 'p', loose)]).toEqual([]);
    expect([...read2sWaiting(db, 'other', read2)]).toEqual([]);

    // A crash mid read 1: back in the queue, read 2 still waits, and its time is not a reason to wake.
    store.update(read1, { state: 'uploading' });
    store.update(loose, { state: 'completed' });
    store.resetRunning();
    expect(ids(true)).toEqual([read1]);
    store.update(read1, { state: 'paused' });
    expect(ids(true)).toEqual([]);
    expect(nextAttemptAt(db, 'p', true)).toBeNull();
    expect(nextAttemptAt(db, 'p', false)).toBe(0);

    // Paused read 1: read 2 still waits for it.
    expect([...read2sWaiting(db, 'p')]).toEqual([read2]);

    // Read 1 in: read 2 goes, also after a restart that found it mid-upload.
    store.update(read1, { state: 'completed', data_id: 7 });
    expect(ids(true)).toEqual([read2]);
    expect([...read2sWaiting(db, 'p')]).toEqual([]);
    store.update(read2, { state: 'uploading' });
    store.resetRunning();
    expect(ids(true)).toEqual([read2]);

    // Read 1 failed or cancelled: read 2 runs, to end with read 1's reason instead of waiting.
    for (const state of ['failed', 'cancelled'] as const) {
      store.update(read1, { state });
      expect(ids(true)).toEqual([read2]);
    }
    db.close();
  });
});
