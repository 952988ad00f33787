/**
 * Statements prepared once per database. Preparing is most of the cost of a small query (a
 * small file's upload ran about twenty, issue 21), so the hot paths take theirs from here. Only
 * statements whose mode nobody changes (no pluck, raw or expand) may be shared this way.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

const statements = new WeakMap<Db, Map<string, Statement>>();

/** The statement for `sql` on `db`, prepared on first use. */
export function prepared(db: Db, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) cache.set(sql, (st = db.prepare(sql)));
  return st;
}
