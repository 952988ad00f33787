/**
 * The one pagination query: the total count and one page of rows for a FROM ... WHERE clause,
 * so no store writes `count(*)` and LIMIT/OFFSET by hand.
 */
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from './database';

export interface PageSelect {
  /** `FROM` target with its alias, e.g. `samples s` (joins allowed). */
  from: string;
  /** A WHERE condition (`1` for all rows) and its parameters. */
  where?: { sql: string; params: readonly unknown[] };
  /** ORDER BY clause without the keywords, e.g. `s.id DESC`. */
  orderBy: string;
  /** Selected columns; `*` of the FROM target by default. */
  columns?: string;
}

/** Counts the matching rows and reads the page that `q` asks for. */
export function selectPage<Row>(db: Db, select: PageSelect, q: PageQuery): PageOf<Row> {
  const where = select.where ?? { sql: '1', params: [] };
  const tail = `FROM ${select.from} WHERE ${where.sql}`;
  const count = (db.prepare(`SELECT count(*) AS n ${tail}`).get(...where.params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT ${select.columns ?? '*'} ${tail} ORDER BY ${select.orderBy} LIMIT ? OFFSET ?`)
    .all(...where.params, q.per_page, (q.page - 1) * q.per_page) as Row[];
  return { count, page: q.page, per_page: q.per_page, items: rows };
}

/** The same page with each row presented. */
export function mapPage<Row, Out>(page: PageOf<Row>, present: (row: Row) => Out): PageOf<Out> {
  return { ...page, items: page.items.map(present) };
}
