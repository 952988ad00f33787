/**
 * Sign-in and refresh for the Flow mount, made of the identity area's own parts (password
 * sign-in path with its slow-down and audit, the
 * same access and refresh tokens and the same refresh-token records), so that a token minted
 * here is a token of the service and a refresh token revoked there is revoked here.
 */
import type { ServiceContext } from '../context';
import { ApiError } from '../http/api-error';
import { toAuthUser, type AuthUser } from '../auth/authenticate';
import { signInWithPassword } from '../identity/sign-in';
import { issueToken, TokenError, verifyToken } from '../auth/tokens';
import { refreshTokenActive, revokeRefreshToken } from '../auth/refresh-tokens';
import { userById } from '../auth/users.store';

/** Checks a password (the service's one sign-in path); answers an access token, a refresh token and the user. */
export async function flowLogIn(
  ctx: ServiceContext,
  username: string,
  password: string,
  address: string,
): Promise<{ access: string; refresh: string; user: AuthUser }> {
  const { row, access, refresh } = await signInWithPassword(ctx, username, password, address);
  return { access, refresh, user: toAuthUser(row) };
}

/** A new access token for a valid, unrevoked refresh token of an enabled user. */
export async function flowRefresh(
  ctx: ServiceContext,
  cookie: string | null,
): Promise<{ access: string; user: AuthUser }> {
  if (!cookie) throw new ApiError('INVALID_REFRESH_TOKEN', 'No refresh token');
  try {
    const claims = await verifyToken(ctx, cookie, 'refresh');
    const row = userById(ctx.db, claims.userId);
    if (!row || row.disabled || !refreshTokenActive(ctx, claims.jti, claims.userId)) {
      throw new TokenError('token revoked');
    }
    return { access: (await issueToken(ctx, row.id, 'access')).token, user: toAuthUser(row) };
  } catch (err) {
    if (err instanceof TokenError)
      throw new ApiError('INVALID_REFRESH_TOKEN', `Refresh token refused (${err.message})`);
    throw err;
  }
}

/** Revokes the refresh token in the cookie, when it is a valid one. */
export async function flowLogOut(ctx: ServiceContext, cookie: string | null): Promise<void> {
  if (!cookie) return;
  try {
    const claims = await verifyToken(ctx, cookie, 'refresh');
    revokeRefreshToken(ctx, claims.jti, new Date(ctx.clock.now()).toISOString());
  } catch (err) {
    // Logging out with a stale cookie still clears it: the goal state is reached.
    if (!(err instanceof TokenError)) throw err;
  }
}
