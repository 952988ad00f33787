/**
 * A full disk is an answer, not a crash: the errors the file system and SQLite raise when the
 * data folder's disk (or the user's quota) is full become 507 INSUFFICIENT_STORAGE. Whoever
 * catches one must have left nothing half-written behind (chunks are acknowledged, records
 * committed, only after their bytes are in place), so the client may retry once space is freed.
 */
import { ApiError } from './api-error';

const FULL_ERRNOS = new Set(['ENOSPC', 'EDQUOT']);
const FULL_SQLITE = new Set(['SQLITE_FULL']);

/** True when `err` says the disk or quota is full. */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (FULL_ERRNOS.has(code) || FULL_SQLITE.has(code));
}

/** The 507 answer for a full disk, or null when `err` is something else. */
export function storageFullError(err: unknown): ApiError | null {
  if (!isStorageFull(err)) return null;
  return new ApiError(
    'INSUFFICIENT_STORAGE',
    "The service's disk is full: nothing was stored; free space on the service and send it again",
  );
}
