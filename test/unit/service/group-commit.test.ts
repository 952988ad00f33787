/**
 * The records of files that arrive whole commit together at the end of their turn of the event
 * loop (src/service/uploads/group-commit.ts), each in a savepoint of its own. Real SQLite in a
 * temporary folder, read back through a second connection: nothing is visible before the group
 * commits, one file's refusal undoes only its own writes, and a commit that fails fails them all.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/service/uploads/group-commit';
import { tempDir } from '../../helpers/temp';

describe('group commit of whole files', () => {
  const dir = tempDir('group-commit-');
  afterAll(() => dir.remove());
  let n = 0;
  /** A database in WAL mode (as the service's) with a second connection to read what committed. */
  function databases() {
    const file = join(dir.path, `db-${n++}.sqlite`);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
      CREATE TABLE files (name TEXT PRIMARY KEY,
        parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)`);
    const reader = new Database(file, { readonly: true });
    const committed = () =>
      (reader.prepare('SELECT name FROM files ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
    return { db, group: new GroupCommit(db), committed, close: () => (reader.close(), db.close()) };
  }
  const insert = (db: Database.Database, name: string, parent: number | null = null) =>
    db.prepare('INSERT INTO files (name, parent) VALUES (?, ?)').run(name, parent);

  it('commits the files of one turn together, each seeing those before it', async () => {
    const { db, group, committed, close } = databases();
    const seen: string[][] = [];
    const all = ['a', 'b', 'c'].map((name) =>
      group.run(() => {
        seen.push(
          (db.prepare('SELECT name FROM files ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name),
        );
        insert(db, name);
        return name.toUpperCase();
      }),
    );
    // Queued, not yet run: nothing is written, and no transaction is open.
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    expect(await Promise.all(all)).toEqual(['A', 'B', 'C']);
    expect(seen).toEqual([[], ['a'], ['a', 'b']]);
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(db.inTransaction).toBe(false);
    close();
  });

  it("undoes a refused file's writes only", async () => {
    const { db, group, committed, close } = databases();
    const ok = group.run(() => insert(db, 'kept-1'));
    const refused = group.run(() => {
      insert(db, 'undone');
      throw new Error('a duplicate');
    });
    const after = group.run(() => insert(db, 'kept-2'));
    await expect(refused).rejects.toThrow('a duplicate');
    await Promise.all([ok, after]);
    expect(committed()).toEqual(['kept-1', 'kept-2']);
    close();
  });

  it('fails every file of the group when the commit fails, storing none', async () => {
    const { db, group, committed, close } = databases();
    // A deferred foreign key is checked at COMMIT: the group's commit fails, not the savepoint.
    const all = [
      group.run(() => insert(db, 'x')),
      group.run(() => insert(db, 'orphan', 42)),
      group.run(() => insert(db, 'y')),
    ];
    for (const p of all) await expect(p).rejects.toThrow(/FOREIGN KEY constraint failed/);
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The next turn's group starts afresh.
    await group.run(() => insert(db, 'z'));
    expect(committed()).toEqual(['z']);
    close();
  });
});
