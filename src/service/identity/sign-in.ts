/**
 * Signing in with a password: the one path both mounts (`/api/login` and Flow's
 * `/flow/api/login`) take, so that they share the slow-down, the unknown-name budget, the
 * failed-sign-in audit and the refresh-token record (a failure on one mount counts on the other).
 * Nothing is written to disk before the password is right (a full disk never stops a sign-in).
 */
import { ApiError } from '../http/api-error';
import type { ServiceContext } from '../context';
import { issueToken } from '../auth/tokens';
import { userByUsername, type UserRow } from '../auth/users.store';
import { DUMMY_HASH, verifyPassword } from './passwords';
import { recordRefreshTokenAnyway } from './refresh-token-record';

export interface SignedIn {
  row: UserRow;
  access: string;
  refresh: string;
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** Checks a password; answers the user with a new access and refresh token, or INVALID_CREDENTIALS. */
export async function signInWithPassword(
  ctx: ServiceContext,
  username: string,
  password: string,
  address: string,
): Promise<SignedIn> {
  const limits = ctx.parts.signIn;
  const lane = limits.begin(username, address);
  const started = performance.now();
  const row = userByUsername(ctx.db, username);
  let ok = false;
  if (row) ok = await verifyPassword(ctx.parts.passwords, password, row.password_hash, lane);
  // An unknown name is checked against a dummy hash, so timing does not reveal it; past the
  // unknown-name budget no hash is spent (sign-in-guard.ts).
  else if (limits.mayHashUnknown(address)) await verifyPassword(ctx.parts.passwords, password, DUMMY_HASH, lane);
  if (!row || !ok || row.disabled) {
    const hold = Math.max(limits.holdFailureMs(address), row ? 0 : ctx.parts.passwords.typicalMs());
    const left = hold - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    limits.fail(username, address);
    ctx.parts.failedSignIns.record(username, address);
    throw new ApiError('INVALID_CREDENTIALS', 'Wrong username or password');
  }
  limits.succeed(username, address);
  const refresh = await issueToken(ctx, row.id, 'refresh');
  recordRefreshTokenAnyway(ctx, refresh.claims.jti, row.id, iso(refresh.claims.iat), iso(refresh.claims.exp));
  const access = await issueToken(ctx, row.id, 'access');
  return { row, access: access.token, refresh: refresh.token };
}
