/**
 * "This account changed" within one service process: whoever holds something on behalf of a
 * user that outlives one request (a GraphQL WebSocket) listens, and re-checks the account at
 * once when it is disabled, loses rights or gets a new password.
 */
import type { ServiceContext } from '../context';

type Listener = (userId: number) => void;

const listeners = new WeakMap<ServiceContext, Set<Listener>>();

/** Calls `listener` with the id of every account changed from now on; returns the unsubscribe. */
export function onAccountChanged(ctx: ServiceContext, listener: Listener): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Announces that an account's row changed (after the change is committed). */
export function accountChanged(ctx: ServiceContext, userId: number): void {
  for (const listener of [...(listeners.get(ctx) ?? [])]) listener(userId);
}
