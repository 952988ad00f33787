/**
 * Checking a presented API key: the auth floor's part of API keys (creating, listing and
 * revoking them is the identity area's `api-keys.commands.ts`). A key is `lwk_` and 43
 * base64url characters; the service keeps its SHA-256 and its first LOOKUP_CHARS secret
 * characters, finds the row by those and compares the hash in constant time. A refusal is
 * reported through `ctx.hooks.credentialRefused` (the root wires it to the audit log, a floor
 * above this one).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '../../shared/service-api/api-keys';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { addressKey } from '../http/client-address';
import { apiKeyByLookup, touchApiKey, type ApiKeyRow } from './api-keys.store';
import { userById, type UserRow } from './users.store';

/** Secret characters kept in clear to find the row (72 of 256 bits; 184 stay secret). */
export const LOOKUP_CHARS = 12;
const SECRET_CHARS = 43;
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${SECRET_CHARS}}$`);
/** A last-used time is written at most this often per key (each use would be a disk write). */
const TOUCH_EVERY_MS = 60_000;
/** Refused key uses per address, as for passwords: 10 in 15 minutes. */
export const KEY_FAILURE_LIMITS = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

/** The SHA-256 of a key, as stored. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest();
const iso = (ctx: ServiceContext, ms = ctx.clock.now()) => new Date(ms).toISOString();

/** True when the credential is shaped like an API key (and so is never tried as a JWT). */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
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
 * accepted: refusals are what is limited (10 per address, an IPv6 /64, in 15 minutes, then 429 RATE_LIMITED
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
  const limiter = ctx.parts.apiKeyLimiter;
  // Counted as sign-in counts (an IPv6 host by its /64), so rotating addresses gains nothing.
  const limitKey = addressKey(address);
  const wait = limiter.retryAfter(limitKey);
  if (wait > 0) {
    throw new ApiError(
      'RATE_LIMITED',
      `Too many refused API keys from this address: try again in ${wait} seconds`,
      { retry_after: wait },
      { 'retry-after': String(wait) },
    );
  }
  limiter.fail(limitKey);
  // A known lookup part is charged to its key and owner: someone holds part of that key.
  for (const hook of ctx.hooks.credentialRefused)
    hook(ctx, {
      actor: row ? { id: row.user_id, username: row.username } : null,
      kind: 'api_key',
      id: row?.id ?? null,
      name: row?.name ?? null,
      reason: problem!,
      address,
    });
  throw errors.unauthenticated(`API key refused (${problem})`);
}
