/**
 * The scheduler's question at every pass, "which samples and lanes have all their files in",
 * reads each open group's jobs through the index on jobs(group_id) and the open groups through
 * the index on groups(profile_id, state) (queue database version 5, issue 21): without them each
 * open group read the whole jobs table, and 2,000 samples queued at once spent half a minute of
 * the core's time there. Real SQLite, migrated as the app opens it, asked for its plan.
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
    expect(plan.some((d) => /SEARCH j USING INDEX jobs_group/.test(d))).toBe(true);
    expect(plan.some((d) => /SEARCH g USING (COVERING )?INDEX groups_state/.test(d))).toBe(true);
    expect(plan.filter((d) => /^SCAN /.test(d))).toEqual([]);
    db.close();
  });
});
