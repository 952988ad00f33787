/**
 * What each user stores: the data records they own (shared content counts for each owner, as
 * it would if they had to keep it alone) plus the chunks of their unfinished uploads. The quota
 * check and the admin's storage report read the same numbers.
 */
import type { Db } from '../db/database';
import { prepared } from '../db/statements';

// The records' bytes come from the running total triggers keep (migration 039).
const USAGE_SQL = `
  SELECT u.id AS user_id, u.username,
    COALESCE((SELECT bytes FROM user_data_bytes b WHERE b.user_id = u.id), 0)
    + COALESCE((SELECT SUM(c.size) FROM upload_chunks c JOIN uploads up ON up.id = c.upload_id
                 WHERE up.user_id = u.id AND up.complete = 0), 0) AS bytes
  FROM users u`;

/** Bytes the user stores now. */
export function usageOf(db: Db, userId: number): number {
  const row = prepared(db, `${USAGE_SQL} WHERE u.id = ?`).get(userId) as { bytes: number } | undefined;
  return row?.bytes ?? 0;
}

/** The users storing the most, largest first. */
export function largestUsers(db: Db, limit: number): Array<{ user_id: number; username: string; bytes: number }> {
  return db.prepare(`${USAGE_SQL} ORDER BY bytes DESC, u.id LIMIT ?`).all(limit) as Array<{
    user_id: number;
    username: string;
    bytes: number;
  }>;
}
