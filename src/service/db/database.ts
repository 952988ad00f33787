/**
 * Opens the service's one SQLite file (WAL) and applies the numbered migrations in order with
 * the shared runner (src/node/sqlite-migrations.ts), each in its own transaction.
 */
import Database from 'better-sqlite3';
import { applyPragmas, migrate } from '../../node/sqlite-migrations';
import { migrations, type Migration } from './migrations/index';

export type Db = Database.Database;

/** Opens (creating if needed) the database at `file` and migrates it to the latest version. */
export function openDatabase(file: string, list: readonly Migration[] = migrations): Db {
  const db = new Database(file);
  applyPragmas(db);
  migrate(db, list);
  return db;
}
