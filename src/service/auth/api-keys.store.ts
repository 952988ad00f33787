/** Queries over the api_keys table. */
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';

export interface ApiKeyRow {
  id: number;
  user_id: number;
  username: string;
  name: string;
  lookup: string;
  hash: string;
  created: string;
  last_used: string | null;
  expires: string | null;
  revoked: string | null;
}

const FROM = 'api_keys k JOIN users u ON u.id = k.user_id';
const COLUMNS = 'k.*, u.username AS username';

/** Inserts a key; returns its id. */
export function insertApiKey(
  db: Db,
  k: { user_id: number; name: string; lookup: string; hash: string; created: string; expires: string | null },
): number {
  const r = db
    .prepare('INSERT INTO api_keys (user_id, name, lookup, hash, created, expires) VALUES (?, ?, ?, ?, ?, ?)')
    .run(k.user_id, k.name, k.lookup, k.hash, k.created, k.expires);
  return Number(r.lastInsertRowid);
}

/** One key by id, with its owner's username. */
export function apiKeyById(db: Db, id: number): ApiKeyRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM ${FROM} WHERE k.id = ?`).get(id) as ApiKeyRow | undefined;
}

/** One key by its lookup part. */
export function apiKeyByLookup(db: Db, lookup: string): ApiKeyRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM ${FROM} WHERE k.lookup = ?`).get(lookup) as ApiKeyRow | undefined;
}

/** One page of keys, newest first: one user's (userId) or everyone's (null). */
export function apiKeysPage(db: Db, userId: number | null, includeRevoked: boolean, q: PageQuery): PageOf<ApiKeyRow> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (userId !== null) {
    conditions.push('k.user_id = ?');
    params.push(userId);
  }
  if (!includeRevoked) conditions.push('k.revoked IS NULL');
  return selectPage<ApiKeyRow>(
    db,
    {
      from: FROM,
      columns: COLUMNS,
      where: { sql: conditions.join(' AND ') || '1', params },
      orderBy: 'k.id DESC',
    },
    q,
  );
}

/** Marks a key revoked. */
export function revokeApiKeyRow(db: Db, id: number, at: string, by: number): void {
  db.prepare('UPDATE api_keys SET revoked = ?, revoked_by = ? WHERE id = ? AND revoked IS NULL').run(at, by, id);
}

/** Records a use. */
export function touchApiKey(db: Db, id: number, at: string): void {
  db.prepare('UPDATE api_keys SET last_used = ? WHERE id = ?').run(at, id);
}
