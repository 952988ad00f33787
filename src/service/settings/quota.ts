/**
 * The per-user quota (admin setting `upload_quota_bytes`), checked before an upload stores more.
 */
import { ApiError } from '../http/api-error';
import type { Db } from '../db/database';
import { setting } from './settings.store';
import { usageOf } from './storage-usage.store';

function human(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/**
 * Throws 507 INSUFFICIENT_STORAGE when storing `more` bytes would take the user past their
 * quota. Checked per chunk, so a user may end at most one chunk past it.
 */
export function checkQuota(db: Db, userId: number, more: number): void {
  const quota = setting(db, 'upload_quota_bytes');
  const used = usageOf(db, userId);
  if (used + more > quota) {
    throw new ApiError(
      'INSUFFICIENT_STORAGE',
      `Your storage quota is used up (${human(used)} of ${human(quota)}): delete data or abandon unfinished uploads, or ask an admin for more`,
      { quota_bytes: quota, used_bytes: used },
    );
  }
}
