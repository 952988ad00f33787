/**
 * Writes the audit log: one row per thing a person did to a resource. Commands call `audit`
 * inside the transaction that makes the change, so an entry exists exactly when the change
 * does. The table refuses UPDATE and DELETE (migration 030); this module only ever inserts.
 */
import type { ServiceContext } from '../context';

export const AUDIT_ACTIONS = [
  'created',
  'shared',
  'unshared',
  'ran',
  'resumed',
  'cancelled',
  'downloaded',
  'deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_KINDS = ['project', 'sample', 'data', 'lane', 'execution', 'group', 'user', 'webhook'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Who did it: a signed-in user, or null for the service itself. */
export interface AuditActor {
  id: number;
  username: string;
}

export interface AuditTarget {
  kind: AuditKind;
  id: number | null;
  name?: string | null;
}

/** Appends one entry. */
export function audit(
  ctx: ServiceContext,
  actor: AuditActor | null,
  action: AuditAction,
  target: AuditTarget,
  details: Record<string, unknown> = {},
): void {
  ctx.db
    .prepare(
      `INSERT INTO audit_log (at, user_id, username, action, resource_kind, resource_id, resource_name, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      new Date(ctx.clock.now()).toISOString(),
      actor?.id ?? null,
      actor?.username ?? null,
      action,
      target.kind,
      target.id,
      target.name ?? null,
      JSON.stringify(details),
    );
}

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

/** An entry as the API shows it. */
export function presentAudit(row: AuditRow) {
  return {
    id: row.id,
    at: row.at,
    user: row.username,
    user_id: row.user_id,
    action: row.action,
    resource: { kind: row.resource_kind, id: row.resource_id, name: row.resource_name },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
