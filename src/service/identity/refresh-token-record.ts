/**
 * Recording a refresh token at sign-in without letting a full disk refuse the sign-in. The
 * insert is tried at once; when the disk (or SQLite's file) is full the token is kept in memory,
 * honoured and revocable there, and written as soon as space is freed (writeWhenSpace). The
 * admin can then always sign in to clean up. A restart before the write forgets the token:
 * its holder signs in again.
 */
import type { ServiceContext } from '../context';
import type { Db } from '../db/database';
import { writeWhenSpace } from '../data/write-when-space';
import { isStorageFull } from '../http/storage-errors';
import { recordRefreshToken } from './users.store';

interface Pending {
  userId: number;
  revoked: boolean;
}

const pendingByDb = new WeakMap<Db, Map<string, Pending>>();

function pendingOf(db: Db): Map<string, Pending> {
  let map = pendingByDb.get(db);
  if (!map) pendingByDb.set(db, (map = new Map()));
  return map;
}

/** Records the token now, or keeps it in memory until the disk has room. */
export function recordRefreshTokenAnyway(
  ctx: ServiceContext,
  jti: string,
  userId: number,
  issued: string,
  expires: string,
): void {
  try {
    recordRefreshToken(ctx.db, jti, userId, issued, expires);
    return;
  } catch (err) {
    if (!isStorageFull(err)) throw err;
  }
  const pending = pendingOf(ctx.db);
  pending.set(jti, { userId, revoked: false });
  writeWhenSpace(ctx, `refresh token of user ${userId}`, () => {
    const p = pending.get(jti);
    if (!p) return;
    // A token revoked while waiting is not worth writing: it can never be used again.
    if (!p.revoked) recordRefreshToken(ctx.db, jti, userId, issued, expires);
    pending.delete(jti);
  });
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
