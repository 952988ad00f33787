/**
 * API keys: `lwk_` and 43 base64url characters (32 random bytes). The service keeps the key's
 * SHA-256 and its first LOOKUP_CHARS secret characters (to find the row, and to show the owner
 * which key is which); a presented key is found by that part and its hash compared in constant
 * time. A key stands for its user's rights as they are at each use: a disabled account's keys
 * stop working, a revoked or expired key at once.
 */
import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, type NewApiKeyBody } from '../../shared/service-api/api-keys';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { apiKeyById, insertApiKey, revokeApiKeyRow, type ApiKeyRow } from '../auth/api-keys.store';
import { LOOKUP_CHARS, sha256 } from '../auth/api-key-verify';
import type { AuthUser } from '../auth/authenticate';

const iso = (ctx: ServiceContext, ms = ctx.clock.now()) => new Date(ms).toISOString();

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
    ctx.parts.accountEvents.changed(row.user_id);
  }
  return apiKeyById(ctx.db, row.id)!;
}
