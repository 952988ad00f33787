/**
 * The one migration runner, on real SQLite files: the service's database and the upload
 * queue's open to their latest versions through it; a list applies in order above the file's
 * user_version, later runs apply only what is new, a failing migration leaves the file at the
 * last whole version, and two migrations with one number are refused.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, type Migration } from '../../../src/node/sqlite-migrations';
import { openQueueDb, QUEUE_MIGRATIONS } from '../../../src/main/core/uploads/queue-db';
import { openDatabase } from '../../../src/service/db/database';
import { migrations } from '../../../src/service/db/migrations/index';
import { tempDir } from '../../helpers/temp';

const dir = tempDir();
afterAll(() => dir.remove());

const version = (db: Database.Database) => db.pragma('user_version', { simple: true });
const tables = (db: Database.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>
  ).map((r) => r.name);

describe('the SQLite migration runner', () => {
  it("brings the service's database and the queue's file to their latest versions", () => {
    const service = openDatabase(join(dir.path, 'service.sqlite'));
    expect(version(service)).toBe(Math.max(...migrations.map((m) => m.version)));
    service.close();
    const queue = openQueueDb(join(dir.path, 'state'));
    const queueLatest = Math.max(...QUEUE_MIGRATIONS.map((m) => m.version));
    expect(version(queue)).toBe(queueLatest);
    expect(tables(queue)).toEqual(expect.arrayContaining(['jobs', 'chunks', 'groups', 'watchers', 'runs']));
    queue.close();
    // Opening again applies nothing (the versions are already there).
    const again = openQueueDb(join(dir.path, 'state'));
    expect(version(again)).toBe(queueLatest);
    again.close();
  });

  it('applies in version order, then only what is new, and keeps a failed step out whole', () => {
    const db = new Database(join(dir.path, 'steps.sqlite'));
    const a: Migration = { version: 1, name: 'a', up: 'CREATE TABLE a (x INTEGER)' };
    const b: Migration = { version: 2, name: 'b', up: 'INSERT INTO a VALUES (1)' };
    migrate(db, [b, a]);
    expect(version(db)).toBe(2);
    migrate(db, [a, b, { version: 5, name: 'c', up: 'INSERT INTO a VALUES (5)' }]);
    expect(version(db)).toBe(5);
    expect(db.prepare('SELECT x FROM a ORDER BY x').all()).toEqual([{ x: 1 }, { x: 5 }]);
    const broken: Migration = {
      version: 6,
      name: 'broken',
      up: 'INSERT INTO a VALUES (6); INSERT INTO nowhere VALUES (1)',
    };
    expect(() => migrate(db, [a, b, broken])).toThrow(/nowhere/);
    expect(version(db)).toBe(5);
    expect(db.prepare('SELECT count(*) AS n FROM a').get()).toEqual({ n: 2 });
    db.close();
  });

  it('refuses two migrations with one number before touching the file', () => {
    const db = new Database(join(dir.path, 'twice.sqlite'));
    const one = { version: 1, name: 'one', up: 'CREATE TABLE t (x)' };
    expect(() => migrate(db, [one, { ...one, name: 'again' }])).toThrow('Two migrations share version 1');
    expect(version(db)).toBe(0);
    expect(tables(db)).toEqual([]);
    db.close();
  });
});
