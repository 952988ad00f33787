/**
 * API keys: `lwk_` and 43 base64url characters (32 random bytes). The service keeps the key's
 * SHA-256 and its first LOOKUP_CHARS secret characters (to find the row, and to show the owner
 * which key is which); a presented key is found by that part and its hash compared in constant
 * time. A key stands for its user's rights as they are at each use: a disabled account's keys
 * stop working, a revoked or expired key at once.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, type NewApiKeyBody } from '../../shared/service-api/api-keys';
import { audit } from '../audit/audit-log';
import { accountChanged } from './account-events';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import {
  apiKeyById,
  apiKeyByLookup,
  insertApiKey,
  revokeApiKeyRow,
  touchApiKey,
  type ApiKeyRow,
} from './api-keys.store';
import type { AuthUser } from './authenticate';
import { FailureLimiter } from './rate-limiter';
import { userById, type UserRow } from './users.store';

/** Secret characters kept in clear to find the row (72 of 256 bits; 184 stay secret). */
const LOOKUP_CHARS = 12;
const SECRET_CHARS = 43;
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${SECRET_CHARS}}$`);
/** A last-used time is written at most this often per key (each use would be a disk write). */
const TOUCH_EVERY_MS = 60_000;
/** Refused key uses per address, as for passwords: 10 in 15 minutes. */
const KEY_FAILURE_LIMITS = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

const limiters = new WeakMap<ServiceContext, FailureLimiter>();
function limiter(ctx: ServiceContext): FailureLimiter {
  let l = limiters.get(ctx);
  if (!l) limiters.set(ctx, (l = new FailureLimiter(ctx.clock, KEY_FAILURE_LIMITS)));
  return l;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
const iso = (ctx: ServiceContext, ms = ctx.clock.now()) => new Date(ms).toISOString();

/** True when the credential is shaped like an API key (and so is never tried as a JWT). */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

/** The part of a key shown in listings. */
export function displayPrefix(lookup: string): string {
  return `${API_KEY_PREFIX}${lookup.slice(0, 8)}`;
}

/** Creates a key for the caller; returns its row and the key (shown once, never stored). */
export function createApiKey(
  ctx: ServiceContext,
  user: AuthUser,
  body: NewApiKeyBody,
): { row: ApiKeyRow; key: string } {
  const secret = randomBytes(32).toString('base64url');
  const key = `${API_KEY_PREFIX}${secret}`;
  const now = ctx.clock.now();
  const id = ctx.db.transaction(() => {
    const keyId = insertApiKey(ctx.db, {
      user_id: user.id,
      name: body.name.trim(),
      lookup: secret.slice(0, LOOKUP_CHARS),
      hash: sha256(key).toString('hex'),
      created: iso(ctx, now),
      expires: body.expires_in_days ? iso(ctx, now + body.expires_in_days * 86_400_000) : null,
    });
    audit(
      ctx,
      user,
      'created',
      { kind: 'api_key', id: keyId, name: body.name.trim() },
      {
        expires_in_days: body.expires_in_days ?? null,
      },
    );
    return keyId;
  })();
  return { row: apiKeyById(ctx.db, id)!, key };
}

/** A key the caller may see (their own; an admin: any), else NOT_FOUND. */
export function loadApiKey(ctx: ServiceContext, user: AuthUser, id: number): ApiKeyRow {
  const row = apiKeyById(ctx.db, id);
  if (!row || (row.user_id !== user.id && !user.isAdmin)) throw errors.notFound('API key');
  return row;
}

/** Revokes a key (idempotent); the owner or an admin. */
export function revokeApiKey(ctx: ServiceContext, user: AuthUser, row: ApiKeyRow): ApiKeyRow {
  if (row.revoked === null) {
    ctx.db.transaction(() => {
      revokeApiKeyRow(ctx.db, row.id, iso(ctx), user.id);
      audit(ctx, user, 'revoked', { kind: 'api_key', id: row.id, name: row.name }, { owner: row.username });
    })();
    // Sockets opened with the key close now.
    accountChanged(ctx, row.user_id);
  }
  return apiKeyById(ctx.db, row.id)!;
}

/** Why a presented key is refused, or null when it holds. */
export function apiKeyProblem(ctx: ServiceContext, row: ApiKeyRow, user: UserRow | undefined): string | null {
  if (row.revoked !== null) return 'revoked';
  if (row.expires !== null && Date.parse(row.expires) <= ctx.clock.now()) return 'expired';
  if (!user || user.disabled) return 'account unavailable';
  return null;
}

/**
 * Verifies a presented key; answers its row and live user, or throws UNAUTHENTICATED, audited.
 * Checking a key costs one SHA-256 and one indexed read, so a good key is always checked and
 * accepted: refusals are what is limited (10 per address in 15 minutes, then 429 RATE_LIMITED
 * without an audit write), so one script with a revoked key behind a lab's shared address never
 * locks the lab's other keys out, and a flood of bad keys cannot fill the audit log.
 */
export function verifyApiKey(ctx: ServiceContext, key: string, address: string): { row: ApiKeyRow; user: UserRow } {
  const row = KEY_SHAPE.test(key)
    ? apiKeyByLookup(ctx.db, key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + LOOKUP_CHARS))
    : undefined;
  const matches = !!row && timingSafeEqual(Buffer.from(row.hash, 'hex'), sha256(key));
  const user = matches ? userById(ctx.db, row.user_id) : undefined;
  const problem = !row ? 'unknown key' : !matches ? 'wrong secret' : apiKeyProblem(ctx, row, user);
  if (problem === null) {
    const now = ctx.clock.now();
    if (row!.last_used === null || now - Date.parse(row!.last_used) >= TOUCH_EVERY_MS)
      touchApiKey(ctx.db, row!.id, iso(ctx, now));
    return { row: row!, user: user! };
  }
  const wait = limiter(ctx).retryAfter(address);
  if (wait > 0) {
    throw new ApiError(
      'RATE_LIMITED',
      `Too many refused API keys from this address: try again in ${wait} seconds`,
      { retry_after: wait },
      { 'retry-after': String(wait) },
    );
  }
  limiter(ctx).fail(address);
  // A known lookup part is charged to its key and owner: someone holds part of that key.
  audit(
    ctx,
    row ? { id: row.user_id, username: row.username } : null,
    'refused',
    { kind: 'api_key', id: row?.id ?? null, name: row?.name ?? null },
    { reason: problem, address },
  );
  throw errors.unauthenticated(`API key refused (${problem})`);
}
