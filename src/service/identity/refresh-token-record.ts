/**
 * Recording a refresh token at sign-in without letting a full disk refuse the sign-in. The
 * insert is tried at once; when the disk (or SQLite's file) is full the token is kept in memory,
 * honoured and revocable there, and written as soon as space is freed (writeWhenSpace). The
 * admin can then always sign in to clean up. A restart before the write forgets the token:
 * its holder signs in again.
 */
import type { ServiceContext } from '../context';
import { writeWhenSpace } from '../storage/write-when-space';
import { isStorageFull } from '../http/storage-errors';
import { recordRefreshToken } from '../auth/users.store';

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
  const pending = ctx.parts.pendingRefreshTokens;
  pending.add(jti, userId);
  writeWhenSpace(ctx, `refresh token of user ${userId}`, () => {
    if (pending.state(jti, userId) === null) return;
    // A token revoked while waiting is not worth writing: it can never be used again.
    if (pending.state(jti, userId)) recordRefreshToken(ctx.db, jti, userId, issued, expires);
    pending.take(jti);
  });
}
