/**
 * JWTs for the two token kinds (access: 30 minutes, refresh: one year), HS256 with a secret
 * generated once per installation and kept in the data folder with mode 0600. Every token
 * carries sub, typ, iat, exp and jti; a token of one type is never accepted as the other.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from '../../shared/limits';
import type { ServiceContext } from '../context';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  userId: number;
  typ: TokenType;
  jti: string;
  iat: number;
  exp: number;
}

/** The file that holds this installation's signing secret. */
export function secretPath(dataDir: string): string {
  return join(dataDir, 'jwt-secret.key');
}

/** Loads (creating on first use) the installation's signing secret; the root calls it once. */
export function loadSigningSecret(dataDir: string): Uint8Array {
  const file = secretPath(dataDir);
  if (!existsSync(file)) {
    // 'wx' fails if another process created it meanwhile; then we read theirs.
    try {
      writeFileSync(file, randomBytes(64).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 bytes`);
  return secret;
}

/** The installation's signing secret, as the composition root loaded it. */
export function signingSecret(ctx: ServiceContext): Uint8Array {
  return ctx.parts.tokenSecret;
}

/** Signs a token of the given type for a user; returns the JWT and its claims. */
export async function issueToken(
  ctx: ServiceContext,
  userId: number,
  typ: TokenType,
): Promise<{ token: string; claims: TokenClaims }> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const exp = iat + (typ === 'access' ? ACCESS_TOKEN_SECONDS : REFRESH_TOKEN_SECONDS);
  const jti = randomUUID();
  const token = await new SignJWT({ typ })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(signingSecret(ctx));
  return { token, claims: { userId, typ, jti, iat, exp } };
}

/** Why a token was refused, for the error message (never for the client to branch on). */
export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

/**
 * Tokens whose signature verified, by secret: a fact of the token and the secret (HMAC), so a
 * token presented again is not verified again (every request of a busy client carries the same
 * access token: 2,000 small files were 2,000 WebCrypto verifications, issue 21). Expiry and type
 * are still checked at every use, and nothing here says a token is still wanted: revocation is
 * the callers' (the user row read per request, the refresh token table), as before.
 */
const verified = new WeakMap<Uint8Array, Map<string, TokenClaims>>();
const MAX_VERIFIED = 4096;

/** Expiry and type of claims whose signature verified, against the service clock. */
function checkClaims(ctx: ServiceContext, claims: TokenClaims, typ: TokenType): TokenClaims {
  // As jose decides: expired from the second `exp` names.
  if (claims.exp <= Math.floor(ctx.clock.now() / 1000)) throw new TokenError('token expired');
  if (claims.typ !== typ) throw new TokenError(`not an ${typ} token`);
  return claims;
}

/** Verifies signature, algorithm, expiry and type against the service clock; throws TokenError. */
export async function verifyToken(ctx: ServiceContext, token: string, typ: TokenType): Promise<TokenClaims> {
  const secret = signingSecret(ctx);
  let known = verified.get(secret);
  if (!known) verified.set(secret, (known = new Map()));
  const hit = known.get(token);
  if (hit) {
    if (hit.exp <= Math.floor(ctx.clock.now() / 1000)) known.delete(token);
    return checkClaims(ctx, hit, typ);
  }
  const claims = await verifySigned(ctx, token, typ);
  if (known.size >= MAX_VERIFIED) known.delete(known.keys().next().value!);
  known.set(token, claims);
  return checkClaims(ctx, claims, typ);
}

/** The claims of a token whose signature, algorithm and expiry verify; throws TokenError. */
async function verifySigned(ctx: ServiceContext, token: string, typ: TokenType): Promise<TokenClaims> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, signingSecret(ctx), {
      algorithms: ['HS256'],
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new TokenError('token expired');
    throw new TokenError('token invalid');
  }
  if (payload.typ !== 'access' && payload.typ !== 'refresh') throw new TokenError(`not an ${typ} token`);
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string') {
    throw new TokenError('token invalid');
  }
  return { userId, typ: payload.typ, jti: payload.jti, iat: payload.iat as number, exp: payload.exp as number };
}
