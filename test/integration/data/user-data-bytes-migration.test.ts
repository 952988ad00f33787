/**
 * Migration 39 adds each user's running total of bytes held (the quota check reads it on every
 * upload). On a real database file that already holds records from before it, the totals start
 * from what each user holds (group records count for nobody), and its triggers then follow every
 * later insert, delete, resize and hand-over, so the total always equals a fresh sum.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/node/sqlite-migrations';
import { openDatabase } from '../../../src/service/db/database';
import { migrations } from '../../../src/service/db/migrations/index';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-migration-39-');
afterAll(() => dir.remove());

type Db = InstanceType<typeof Database>;
const now = new Date().toISOString();

function insertFile(db: Db, id: number, size: number, owner: { user?: number; group?: number }): void {
  db.prepare(
    `INSERT INTO data_files (id, filename, size, data_type, checksum, storage_key, owner_user_id, owner_group_id, created, source)
     VALUES (?, ?, ?, 'fastq', ?, ?, ?, ?, ?, 'upload')`,
  ).run(
    id,
    `f${id}.fastq`,
    size,
    String(id).padStart(64, '0'),
    String(id).padStart(64, '0'),
    owner.user ?? null,
    owner.group ?? null,
    now,
  );
}

/** The totals the triggers keep, and the totals a fresh sum over the records gives. */
function totals(db: Db): { kept: unknown[]; summed: unknown[] } {
  return {
    kept: db.prepare('SELECT user_id, bytes FROM user_data_bytes WHERE bytes <> 0 ORDER BY user_id').all(),
    summed: db
      .prepare(
        `SELECT owner_user_id AS user_id, SUM(size) AS bytes FROM data_files
         WHERE owner_user_id IS NOT NULL GROUP BY owner_user_id HAVING SUM(size) <> 0 ORDER BY owner_user_id`,
      )
      .all(),
  };
}

describe('migration 39: bytes held per user', () => {
  it('starts from the records a database already holds, then follows every change to them', () => {
    const file = join(dir.path, 'laneway.db');
    const before = new Database(file);
    migrate(
      before,
      migrations.filter((m) => m.version < 39),
    );
    const addUser = before.prepare(
      "INSERT INTO users (id, username, email, name, password_hash, created) VALUES (?, ?, '', ?, 'x', ?)",
    );
    addUser.run(1, 'ann', 'Ann', now);
    addUser.run(2, 'bob', 'Bob', now);
    addUser.run(3, 'cy', 'Cy', now);
    before.prepare("INSERT INTO groups (id, slug, name, created) VALUES (1, 'lab', 'Lab', ?)").run(now);
    insertFile(before, 1, 1000, { user: 1 });
    insertFile(before, 2, 2500, { user: 1 });
    insertFile(before, 3, 7, { user: 2 });
    insertFile(before, 4, 40_000, { group: 1 });
    // Larger than 2^31, as a whole run's FASTQ is: the total must not wrap.
    insertFile(before, 5, 5 * 2 ** 31, { user: 2 });
    before.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    // Back-filled from the records that were there: Cy holds nothing and has no row.
    expect(db.prepare('SELECT user_id, bytes FROM user_data_bytes ORDER BY user_id').all()).toEqual([
      { user_id: 1, bytes: 3500 },
      { user_id: 2, bytes: 7 + 5 * 2 ** 31 },
    ]);

    insertFile(db, 6, 300, { user: 3 }); // a first record for a user without a row
    insertFile(db, 7, 11, { user: 1 });
    db.prepare('DELETE FROM data_files WHERE id = 2').run();
    db.prepare('UPDATE data_files SET size = 1200 WHERE id = 1').run(); // a resize
    db.prepare('UPDATE data_files SET owner_user_id = 3 WHERE id = 3').run(); // handed to another user
    db.prepare('UPDATE data_files SET owner_group_id = NULL, owner_user_id = 1 WHERE id = 4').run(); // a group's record to a user
    db.prepare('UPDATE data_files SET owner_user_id = NULL, owner_group_id = 1 WHERE id = 6').run(); // a user's record to a group
    db.prepare("UPDATE data_files SET filename = 'renamed.fastq' WHERE id = 5").run(); // no change in bytes

    const { kept, summed } = totals(db);
    expect(kept).toEqual(summed);
    expect(kept).toEqual([
      { user_id: 1, bytes: 1200 + 11 + 40_000 },
      { user_id: 2, bytes: 5 * 2 ** 31 },
      { user_id: 3, bytes: 7 },
    ]);
    db.close();
  });
});
