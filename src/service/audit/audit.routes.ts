/**
 * GET /api/audit: the audit log for service administrators, newest first, paginated and
 * filterable by user, action, resource kind and id, and a time range. There is deliberately no
 * route that writes, edits or deletes entries.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';

import type { ServiceContext } from '../context';
import { mapPage } from '../db/select-page';
import { errors } from '../http/api-error';
import { requireUser } from '../auth/authenticate';
import { presentAudit } from './audit.presenter';
import { auditPage } from './audit.store';
import { getAudit } from '../../shared/service-api/endpoints/audit';
import { serve } from '../http/serve-endpoint';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A query time as the log's ISO-8601 UTC form, or a VALIDATION_ERROR naming the field. */
function isoTime(field: string, value: string): string {
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw errors.validation({ [field]: 'an ISO-8601 date or time, e.g. 2026-11-24T09:00:00Z' });
  return new Date(ms).toISOString();
}

/** Registers the audit routes. */
export function auditRoutes(fastify: FastifyInstance, ctx: ServiceContext): void {
  serve(fastify.withTypeProvider<TypeBoxTypeProvider>(), getAudit, async (request) => {
    const user = requireUser(request);
    if (!user.isAdmin) throw errors.permissionDenied('Only service administrators can read the audit log');
    const q = request.query;
    const since = q.since !== undefined ? isoTime('since', q.since) : undefined;
    const until = q.until !== undefined ? isoTime('until', q.until) : undefined;
    if (since !== undefined && until !== undefined && since >= until) {
      throw errors.validation({ until: 'must be later than since' });
    }
    const filter = {
      username: q.user,
      action: q.action,
      resource_kind: q.resource_kind,
      resource_id: q.resource_id,
      since,
      until,
    };
    return mapPage(auditPage(ctx.db, filter, q), presentAudit);
  });
}
