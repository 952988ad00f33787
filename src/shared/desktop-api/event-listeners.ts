/**
 * The page's end of the core's events, shared by both transports (the preload's IPC bridge
 * and browser mode's WebSocket): listeners by event name, and delivery of a batch in order.
 * A listener that throws is handed to `onError` (the page's `reportError`), and the other
 * listeners and the rest of the batch still get their events.
 */
import type { EventName } from './contract';
import type { WireEvent } from './wire';

type Listener = (payload: unknown) => void;

export interface EventListeners {
  /** Adds a listener; `first` is true when it is the event's first (the transport subscribes). */
  add(event: EventName, listener: Listener): { first: boolean; remove(): boolean };
  names(): EventName[];
  deliver(event: string, payload: unknown): void;
  deliverAll(events: readonly WireEvent[]): void;
}

export function createEventListeners(onError: (err: unknown) => void): EventListeners {
  const byEvent = new Map<string, Set<Listener>>();
  const deliver = (event: string, payload: unknown) => {
    const set = byEvent.get(event);
    if (!set) return;
    for (const l of set) {
      try {
        l(payload);
      } catch (err) {
        onError(err);
      }
    }
  };
  return {
    add(event, listener) {
      let set = byEvent.get(event);
      const first = !set;
      if (!set) {
        set = new Set();
        byEvent.set(event, set);
      }
      set.add(listener);
      const own = set;
      return {
        first,
        /** Removes the listener; true when it was the event's last (the transport unsubscribes). */
        remove() {
          if (!own.delete(listener) || own.size > 0 || byEvent.get(event) !== own) return false;
          byEvent.delete(event);
          return true;
        },
      };
    },
    names: () => [...byEvent.keys()] as EventName[],
    deliver,
    deliverAll(events) {
      for (const e of events) deliver(e.event, e.payload);
    },
  };
}
