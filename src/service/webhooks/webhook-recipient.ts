/**
 * Whether a webhook's owner may still receive a delivery, checked at every attempt: a disabled
 * account receives nothing, and an execution's payload goes only to someone who may still view
 * that execution (removed from the run's group, or a share revoked: no more payloads).
 */
import type { ServiceContext } from '../context';
import { toAuthUser } from '../auth/authenticate';
import { userById } from '../auth/users.store';
import { accessTo } from '../policy/policy';

export function recipientMayReceive(ctx: ServiceContext, userId: number, payload: string): boolean {
  const row = userById(ctx.db, userId);
  if (!row || row.disabled) return false;
  const executionId = (JSON.parse(payload) as { execution?: { id?: unknown } }).execution?.id;
  if (typeof executionId !== 'number') return true;
  return accessTo(ctx.db, 'execution', executionId, toAuthUser(row)) !== null;
}
