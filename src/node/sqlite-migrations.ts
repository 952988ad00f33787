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
  /**
   * The migration rebuilds tables other tables refer to (SQLite's way to change a constraint):
   * foreign keys are switched off around it (they cannot be inside a transaction) and every
   * reference is checked before it commits.
   */
  rebuildsTables?: boolean;
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
    const fkWasOn = Number(db.pragma('foreign_keys', { simple: true })) === 1;
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

/** The pragmas every file of ours opens with: WAL, foreign keys, a wait on a busy lock. */
export function applyPragmas(db: MigratableDb): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}
