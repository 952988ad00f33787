/** The endpoints of service/audit/audit.routes.ts. */
import { op } from '../endpoint';
import { AuditPage, AuditQuery } from '../audit';

export const getAudit = op({
  method: 'GET',
  path: '/api/audit',
  operationId: 'getAudit',
  summary: 'The audit log (service administrators only), newest first',
  description:
    'Who created, shared, ran, resumed, cancelled, downloaded and deleted what, and when. Filters: user ' +
    '(username), action, resource_kind, resource_id, since and until (ISO-8601; since inclusive, until ' +
    'exclusive). Append-only: no route changes it.',
  tags: ['audit'],
  query: AuditQuery,
  response: { 200: AuditPage },
});
