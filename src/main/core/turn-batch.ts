/**
 * Collects what is pushed during one turn of the event loop and hands it on as one batch at
 * the turn's end. Both desktop API transports (Electron IPC and browser mode's WebSocket) send
 * the core's events this way: a plate of 2,000 samples makes some 10,000 queue events, and one
 * message each cost the core more than the uploads did (issue 21).
 */
export interface TurnBatch<T> {
  push(item: T): void;
  /** Sends what is pending now. Called before a call's result, so the page never sees a result
   *  before the events that happened ahead of it. */
  flush(): void;
  /** Drops what is pending and sends nothing more. */
  dispose(): void;
}

export function createTurnBatch<T>(send: (items: T[]) => void): TurnBatch<T> {
  let pending: T[] = [];
  let timer: NodeJS.Immediate | null = null;
  let disposed = false;
  const flush = () => {
    if (timer) clearImmediate(timer);
    timer = null;
    const items = pending;
    pending = [];
    if (items.length > 0 && !disposed) send(items);
  };
  return {
    push(item) {
      if (disposed) return;
      pending.push(item);
      timer ??= setImmediate(flush);
    },
    flush,
    dispose() {
      disposed = true;
      if (timer) clearImmediate(timer);
      timer = null;
      pending = [];
    },
  };
}
