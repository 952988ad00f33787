/**
 * Refresh tokens issued while the disk was full, kept in memory until they can be written
 * (identity/refresh-token-record.ts writes them): honoured and revocable meanwhile. Keyed by the
 * database, since the users store that consults them is called with the database alone.
 */
import type { Db } from '../db/database';

interface Pending {
  userId: number;
  revoked: boolean;
}

const pendingByDb = new WeakMap<Db, Map<string, Pending>>();

/** The pending tokens of one database. */
export function pendingOf(db: Db): Map<string, Pending> {
  let map = pendingByDb.get(db);
  if (!map) pendingByDb.set(db, (map = new Map()));
  return map;
}

/** The pending token's state: active, revoked, or not pending (null). */
export function pendingRefreshToken(db: Db, jti: string, userId: number): boolean | null {
  const p = pendingByDb.get(db)?.get(jti);
  if (!p) return null;
  return p.userId === userId && !p.revoked;
}

/** Revokes pending tokens: one by jti, or all of a user's. */
export function revokePendingRefreshTokens(db: Db, match: { jti?: string; userId?: number }): void {
  for (const [jti, p] of pendingByDb.get(db) ?? []) {
    if (jti === match.jti || p.userId === match.userId) p.revoked = true;
  }
}
