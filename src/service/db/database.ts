/**
 * Opens the service's one SQLite file (WAL) and applies the numbered migrations in order,
 * each in its own transaction. Migrations are never edited once shipped: add a new one.
 */
import Database from 'better-sqlite3';
import { migrations, type Migration } from './migrations/index';

export type Db = Database.Database;

/** Opens (creating if needed) the database at `file` and migrates it to the latest version. */
export function openDatabase(file: string, list: readonly Migration[] = migrations): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, list);
  return db;
}

/** Applies every migration newer than the database's user_version. */
export function migrate(db: Db, list: readonly Migration[]): void {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version) {
      throw new Error(`Two migrations share version ${sorted[i]!.version}`);
    }
  }
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of sorted) {
    if (m.version <= current) continue;
    const fkWasOn = db.pragma('foreign_keys', { simple: true }) === 1;
    if (m.rebuildsTables && fkWasOn) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.up);
        if (m.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number }>;
          if (broken.length > 0)
            throw new Error(`Migration ${m.version} would break references: ${JSON.stringify(broken.slice(0, 5))}`);
        }
        db.pragma(`user_version = ${m.version}`);
      })();
    } finally {
      if (m.rebuildsTables && fkWasOn) db.pragma('foreign_keys = ON');
    }
  }
}
