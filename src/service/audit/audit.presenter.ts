/** An audit log entry as the API shows it. */
import type { AuditEntry } from '../../shared/service-api/audit';
import type { AuditRow } from './audit.store';

/** An entry as the API shows it. */
export function presentAudit(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    user: row.username,
    user_id: row.user_id,
    action: row.action as AuditEntry['action'],
    resource: {
      kind: row.resource_kind as AuditEntry['resource']['kind'],
      id: row.resource_id,
      name: row.resource_name,
    },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
