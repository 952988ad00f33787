/**
 * Refresh tokens as the service knows them: the table (users.store.ts) and the ones still
 * waiting to be written because the disk was full (`ctx.parts.pendingRefreshTokens`). Checks
 * and revocations go through here so that a pending token is honoured and revoked like one
 * in the table.
 */
import type { ServiceParts, StoreContext } from '../context';
import { revokeStoredRefreshTokens, storedRefreshTokenState } from './users.store';

/** What the token checks need: the database and the pending tokens. */
export type RefreshTokenContext = Pick<StoreContext, 'db'> & { parts: Pick<ServiceParts, 'pendingRefreshTokens'> };

/** True when the refresh token was issued here for this user and not revoked. */
export function refreshTokenActive(ctx: RefreshTokenContext, jti: string, userId: number): boolean {
  return storedRefreshTokenState(ctx.db, jti, userId) ?? ctx.parts.pendingRefreshTokens.state(jti, userId) ?? false;
}

/** Revokes one refresh token. */
export function revokeRefreshToken(ctx: RefreshTokenContext, jti: string, at: string): void {
  ctx.parts.pendingRefreshTokens.revoke({ jti });
  revokeStoredRefreshTokens(ctx.db, { jti }, at);
}

/** Revokes every refresh token of a user (password change, account disabled). */
export function revokeAllRefreshTokens(ctx: RefreshTokenContext, userId: number, at: string): void {
  ctx.parts.pendingRefreshTokens.revoke({ userId });
  revokeStoredRefreshTokens(ctx.db, { userId }, at);
}
