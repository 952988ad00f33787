/** The SQLite side of backup and restore: an online snapshot, and the check of a restored copy. */
import Database from 'better-sqlite3';

/** Copies a live SQLite database to `to` in one consistent snapshot (the online backup API). */
export async function snapshotDatabase(from: string, to: string): Promise<void> {
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    // After the first step, copy everything left in one step: a snapshot that a busy writer
    // cannot keep restarting page batch after page batch.
    await db.backup(to, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/** SQLite's own integrity check of a database file: 'ok', or what is wrong. */
export function integrityCheck(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}
