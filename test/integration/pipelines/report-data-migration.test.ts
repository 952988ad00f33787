/**
 * Migration 26 rebuilds data_files so that `source` may be 'report': on a real database file
 * with data the other tables point at, every row and reference survives, the constraints still
 * hold, and foreign keys are back on afterwards.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/node/sqlite-migrations';
import { openDatabase } from '../../../src/service/db/database';
import { migrations } from '../../../src/service/db/migrations/index';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-migration-26-');
afterAll(() => dir.remove());

describe('migration 26: report data records', () => {
  it('keeps rows and references, accepts source report, and keeps foreign keys enforced', () => {
    const file = join(dir.path, 'laneway.db');
    const before = new Database(file);
    before.pragma('foreign_keys = ON');
    migrate(
      before,
      migrations.filter((m) => m.version < 26),
    );
    const now = new Date().toISOString();
    before
      .prepare(
        "INSERT INTO users (id, username, email, name, password_hash, created) VALUES (1, 'ann', '', 'Ann', 'x', ?)",
      )
      .run(now);
    const insertData = before.prepare(
      `INSERT INTO data_files (id, filename, size, data_type, checksum, storage_key, owner_user_id, created, source)
       VALUES (?, ?, 10, 'fastq', ?, ?, 1, ?, 'upload')`,
    );
    insertData.run(1, 'a_R1.fastq', 'a'.repeat(64), 'a'.repeat(64), now);
    insertData.run(2, 'a_R2.fastq', 'b'.repeat(64), 'b'.repeat(64), now);
    before
      .prepare(
        "INSERT INTO samples (id, name, read1_id, read2_id, owner_user_id, created, updated) VALUES (1, 'a', 1, 2, 1, ?, ?)",
      )
      .run(now, now);
    before
      .prepare(
        "INSERT INTO uploads (user_id, file_id, filename, total_chunks, data_id, complete, created, updated) VALUES (1, 'f', 'a_R1.fastq', 1, 1, 1, ?, ?)",
      )
      .run(now, now);
    expect(() =>
      before
        .prepare(
          "INSERT INTO data_files (filename, size, data_type, checksum, storage_key, owner_user_id, created, source) VALUES ('r', 1, 'multiqc', 'c', 'c', 1, ?, 'report')",
        )
        .run(now),
    ).toThrow(/CHECK constraint/);
    before.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT id, filename, source FROM data_files ORDER BY id').all()).toEqual([
      { id: 1, filename: 'a_R1.fastq', source: 'upload' },
      { id: 2, filename: 'a_R2.fastq', source: 'upload' },
    ]);
    expect(db.prepare('SELECT read1_id, read2_id FROM samples').get()).toEqual({ read1_id: 1, read2_id: 2 });
    expect(db.prepare('SELECT data_id FROM uploads').get()).toEqual({ data_id: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The indexes came back with the table.
    const indexes = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'data_files' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(indexes).toEqual([
      'data_files_checksum',
      'data_files_execution',
      'data_files_owner_user',
      'data_files_storage',
    ]);
    // Samples still point at the rebuilt table: a read in use cannot go, a missing one cannot come.
    expect(() => db.prepare('DELETE FROM data_files WHERE id = 1').run()).toThrow(/FOREIGN KEY/);
    expect(() =>
      db
        .prepare("INSERT INTO samples (name, read1_id, owner_user_id, created, updated) VALUES ('b', 99, 1, 'x', 'x')")
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(
      "INSERT INTO data_files (filename, size, data_type, checksum, storage_key, owner_user_id, created, source) VALUES ('r', 1, 'multiqc', 'c', 'c', 1, ?, 'report')",
    ).run(now);
    expect(() =>
      db
        .prepare(
          "INSERT INTO data_files (filename, size, data_type, checksum, storage_key, owner_user_id, created, source) VALUES ('r', 1, 'x', 'c', 'c', 1, ?, 'elsewhere')",
        )
        .run(now),
    ).toThrow(/CHECK constraint/);
    db.close();
  });
});
