/**
 * "This account changed" within one service process: whoever holds something on behalf of a
 * user that outlives one request (a GraphQL WebSocket) listens, and re-checks the account at
 * once when it is disabled, loses rights or gets a new password. One instance per service,
 * built by the composition root (`ctx.parts.accountEvents`).
 */
type Listener = (userId: number) => void;

export class AccountEvents {
  private readonly listeners = new Set<Listener>();

  /** Calls `listener` with the id of every account changed from now on; returns the unsubscribe. */
  onChanged(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Announces that an account's row changed (after the change is committed). */
  changed(userId: number): void {
    for (const listener of [...this.listeners]) listener(userId);
  }
}
