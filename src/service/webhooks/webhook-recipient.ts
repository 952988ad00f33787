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
  const executionId = (JSON.parse(payload) as { execution?: { id?: unknown } }).execution?.id;
  return mayBeToldOf(ctx, userId, typeof executionId === 'number' ? executionId : null);
}

/** An enabled account that may still view the execution (when one is named). */
export function mayBeToldOf(ctx: ServiceContext, userId: number, executionId: number | null): boolean {
  const row = userById(ctx.db, userId);
  if (!row || row.disabled) return false;
  if (executionId === null) return true;
  return accessTo(ctx.db, 'execution', executionId, toAuthUser(row)) !== null;
}
