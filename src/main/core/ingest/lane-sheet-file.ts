/**
 * A lane sheet the Lane screen built (an .xlsx in memory) kept as a file beside the upload
 * queue's database, so that the lane's group can be created after a restart: the group keeps
 * the path, the finisher reads the file when the lane's reads are in. Named by content, so the
 * same sheet sent twice is one file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type Database from 'better-sqlite3';

/** The largest sheet the service reads (20 MiB), checked before it is written. */
const MAX_SHEET_BYTES = 20 * 1024 * 1024;

/** Writes the base64 .xlsx and answers its path. */
export function keepLaneSheet(db: Database.Database, base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new Error('The lane sheet is empty');
  if (bytes.length > MAX_SHEET_BYTES) throw new Error('The lane sheet exceeds 20 MiB');
  // An .xlsx is a zip: a sheet that is not one is refused here, not after the reads went up.
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50)
    throw new Error('The lane sheet is not an .xlsx workbook');
  const base = isAbsolute(db.name) ? dirname(db.name) : tmpdir();
  const dir = join(base, 'lane-sheets');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.xlsx`);
  writeFileSync(path, bytes, { mode: 0o600 });
  return path;
}
