/**
 * The scheduler's question at every pass, "which samples and lanes have all their files in",
 * reads only the ready groups, through the index on groups(profile_id, open_jobs, state) (queue
 * database version 6, issue 21). Before version 5 each open group read the whole jobs table (2,000
 * samples queued at once spent half a minute of the core's time there); with version 5's
 * indexes it still visited every open group, 2 ms a pass. Real SQLite, migrated as the app opens
 * it, asked for its plan.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUPS_READY } from '../../../src/main/core/uploads/queue-queries';
import { openQueueDb } from '../../../src/main/core/uploads/queue-db';
import { tempDir } from '../../helpers/temp';

describe("the queue's query plans", () => {
  const dir = tempDir('queue-plans-');
  afterAll(() => dir.remove());

  it('finds the groups ready to create through indexes, scanning no table', () => {
    const db = openQueueDb(join(dir.path, 'state'));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${GROUPS_READY}`).all('p') as Array<{ detail: string }>).map(
      (r) => r.detail,
    );
    expect(plan).toEqual([
      expect.stringMatching(
        /^SEARCH groups USING (COVERING )?INDEX groups_ready \(profile_id=\? AND open_jobs=\? AND state=\?\)$/,
      ),
    ]);
    db.close();
  });
});
