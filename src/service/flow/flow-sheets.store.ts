/**
 * Lane sheets uploaded on the Flow mount ahead of their reads (migration 036): a row per sheet,
 * its bytes in `<data>/flow-sheets/<file>`. Kept in the database so that a restart between the
 * sheet and its reads loses neither.
 */
import type { StoreContext } from '../context';

export interface PendingSheet {
  id: string;
  userId: number;
  /** The file's name in `<data>/flow-sheets/`. */
  file: string;
  filename: string;
  size: number;
  accepted: boolean;
  /** The reads files the sheet's File columns name (empty when it has none). */
  files: string[];
  /** When the upload started (ms since the epoch). */
  created: number;
  used: boolean;
}

interface SheetRow {
  id: string;
  user_id: number;
  file: string;
  filename: string;
  size: number;
  accepted: number;
  files: string;
  created: number;
  used: number;
}

const sheetOf = (r: SheetRow): PendingSheet => ({
  id: r.id,
  userId: r.user_id,
  file: r.file,
  filename: r.filename,
  size: r.size,
  accepted: r.accepted === 1,
  files: JSON.parse(r.files) as string[],
  created: r.created,
  used: r.used === 1,
});

export function insertSheet(
  ctx: StoreContext,
  s: Pick<PendingSheet, 'id' | 'userId' | 'file' | 'filename' | 'created'>,
) {
  ctx.db
    .prepare('INSERT INTO flow_pending_sheets (id, user_id, file, filename, created) VALUES (?, ?, ?, ?, ?)')
    .run(s.id, s.userId, s.file, s.filename, s.created);
}

export function sheetById(ctx: StoreContext, id: string): PendingSheet | undefined {
  const row = ctx.db.prepare('SELECT * FROM flow_pending_sheets WHERE id = ?').get(id) as SheetRow | undefined;
  return row && sheetOf(row);
}

/** The caller's accepted sheets not yet used by a lane, newest first. */
export function waitingSheetsOf(ctx: StoreContext, userId: number): PendingSheet[] {
  const rows = ctx.db
    .prepare(
      'SELECT * FROM flow_pending_sheets WHERE user_id = ? AND accepted = 1 AND used = 0 ORDER BY created DESC, rowid DESC',
    )
    .all(userId) as SheetRow[];
  return rows.map(sheetOf);
}

export function setSheetSize(ctx: StoreContext, id: string, size: number): void {
  ctx.db.prepare('UPDATE flow_pending_sheets SET size = ? WHERE id = ?').run(size, id);
}

export function acceptSheet(ctx: StoreContext, id: string, files: string[]): void {
  ctx.db.prepare('UPDATE flow_pending_sheets SET accepted = 1, files = ? WHERE id = ?').run(JSON.stringify(files), id);
}

export function markSheetUsed(ctx: StoreContext, id: string): void {
  ctx.db.prepare('UPDATE flow_pending_sheets SET used = 1 WHERE id = ?').run(id);
}

export function deleteSheet(ctx: StoreContext, id: string): void {
  ctx.db.prepare('DELETE FROM flow_pending_sheets WHERE id = ?').run(id);
}

/** Sheets whose upload started before `before` (ms). */
export function sheetsCreatedBefore(ctx: StoreContext, before: number): PendingSheet[] {
  const rows = ctx.db.prepare('SELECT * FROM flow_pending_sheets WHERE created < ?').all(before) as SheetRow[];
  return rows.map(sheetOf);
}

/** The file names every sheet row names. */
export function sheetFiles(ctx: StoreContext): Set<string> {
  const rows = ctx.db.prepare('SELECT file FROM flow_pending_sheets').all() as Array<{ file: string }>;
  return new Set(rows.map((r) => r.file));
}
