/**
 * The one migration runner for our SQLite files (the service's database and the desktop
 * core's upload queue): numbered migrations applied in order above the file's `user_version`,
 * each with its version stamp in one transaction, so a crash leaves a file at a whole version.
 * Migrations are never edited once shipped: add a new one. The database is typed by what is
 * used of it (better-sqlite3's Database fits), so this room needs no driver of its own.
 */

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** The part of a better-sqlite3 Database the runner uses. */
export interface MigratableDb {
  exec(sql: string): unknown;
  pragma(source: string, options: { simple: true }): unknown;
  pragma(source: string): unknown;
  transaction(fn: () => void): () => void;
}

/** Applies every migration newer than the database's user_version; refuses duplicate versions. */
export function migrate(db: MigratableDb, list: readonly Migration[]): void {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version) {
      throw new Error(`Two migrations share version ${sorted[i]!.version}`);
    }
  }
  const current = Number(db.pragma('user_version', { simple: true }));
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

/** The pragmas every file of ours opens with: WAL, foreign keys, a wait on a busy lock. */
export function applyPragmas(db: MigratableDb): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}
