/** Queries over the audit log: append, read a filtered page, and who did something first. */
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';
import { prepared } from '../db/statements';

export interface AuditRow {
  id: number;
  at: string;
  user_id: number | null;
  username: string | null;
  action: string;
  resource_kind: string;
  resource_id: number | null;
  resource_name: string | null;
  details: string;
}

/** Appends one entry (the table refuses UPDATE and DELETE). */
export function insertAuditEntry(db: Db, row: Omit<AuditRow, 'id'>): void {
  prepared(
    db,
    `INSERT INTO audit_log (at, user_id, username, action, resource_kind, resource_id, resource_name, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.at,
    row.user_id,
    row.username,
    row.action,
    row.resource_kind,
    row.resource_id,
    row.resource_name,
    row.details,
  );
}

/** Exact-match filters and a time range [since, until) over the log. */
export interface AuditFilter {
  username?: string;
  action?: string;
  resource_kind?: string;
  resource_id?: number;
  since?: string;
  until?: string;
}

/** One page of the entries that match, newest first. */
export function auditPage(db: Db, filter: AuditFilter, q: PageQuery): PageOf<AuditRow> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (filter.username !== undefined) add('username = ?', filter.username);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.resource_kind !== undefined) add('resource_kind = ?', filter.resource_kind);
  if (filter.resource_id !== undefined) add('resource_id = ?', filter.resource_id);
  // ISO-8601 UTC strings of one length sort as times do.
  if (filter.since !== undefined) add('at >= ?', filter.since);
  if (filter.until !== undefined) add('at < ?', filter.until);
  const condition = where.length ? { sql: where.join(' AND '), params } : undefined;
  return selectPage<AuditRow>(db, { from: 'audit_log', where: condition, orderBy: 'id DESC' }, q);
}

/** The user of the first entry with this action on this resource, or null (none, or the service). */
export function firstActorOf(db: Db, action: string, kind: string, id: number): number | null {
  const row = db
    .prepare(
      'SELECT user_id FROM audit_log WHERE action = ? AND resource_kind = ? AND resource_id = ? ORDER BY id LIMIT 1',
    )
    .get(action, kind, id) as { user_id: number | null } | undefined;
  return row?.user_id ?? null;
}
