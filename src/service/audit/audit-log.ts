/**
 * Writes the audit log: one row per thing a person did to a resource. Commands call `audit`
 * inside the transaction that makes the change, so an entry exists exactly when the change
 * does. The table refuses UPDATE and DELETE (migration 030); this module only ever inserts.
 */
import type { AuditAction, AuditKind } from '../../shared/service-api/audit';
import type { StoreContext } from '../context';
import { insertAuditEntry } from './audit.store';

export type { AuditAction, AuditKind };

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
  ctx: StoreContext,
  actor: AuditActor | null,
  action: AuditAction,
  target: AuditTarget,
  details: Record<string, unknown> = {},
): void {
  insertAuditEntry(ctx.db, {
    at: new Date(ctx.clock.now()).toISOString(),
    user_id: actor?.id ?? null,
    username: actor?.username ?? null,
    action,
    resource_kind: target.kind,
    resource_id: target.id,
    resource_name: target.name ?? null,
    details: JSON.stringify(details),
  });
}
