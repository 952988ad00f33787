/**
 * The in-process event bus of execution updates. The recorder publishes every status change,
 * progress step, process change and log entry right after writing it to the database, in
 * order and synchronously, so a subscriber that reads the current state and subscribes in the
 * same tick misses nothing and sees nothing twice.
 */
import type { ProcessExecution } from '../../shared/service-api/executions';

/** A process as the events and the API carry it: the wire's shape with every field present. */
export type ProcessView = Required<Omit<ProcessExecution, 'resources'>> & {
  resources: Required<NonNullable<ProcessExecution['resources']>>;
};

export interface LogView {
  id: number;
  timestamp: string;
  process: string;
  message: string;
  level: string;
}

/** The execution's state at the time of the event; every event carries it. */
interface State {
  status: string;
  progress: number;
  error: string | null;
}

export type ExecutionEvent =
  | ({ kind: 'STATUS' } & State)
  | ({ kind: 'PROGRESS' } & State)
  | ({ kind: 'PROCESS'; process: ProcessView } & State)
  | ({ kind: 'LOG'; log: LogView } & State);

/** An event as delivered: one frozen object shared by every listener (so views can be cached). */
export type DeliveredEvent = Readonly<ExecutionEvent & { sequence: number; executionId: number }>;

export type Listener = (event: DeliveredEvent) => void;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** True for statuses an execution never leaves. */
export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** Per-execution listeners and sequence numbers. */
export class ExecutionEvents {
  private listeners = new Map<number, Set<Listener>>();
  private sequences = new Map<number, number>();
  private endListeners = new Set<(executionId: number, status: string) => void>();

  /** Listens to every execution reaching a final status (notifications, webhooks); returns the unsubscribe function. */
  onEnded(listener: (executionId: number, status: string) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Delivers an event to the execution's current listeners. */
  publish(executionId: number, event: ExecutionEvent): void {
    const sequence = (this.sequences.get(executionId) ?? 0) + 1;
    this.sequences.set(executionId, sequence);
    if (event.kind === 'STATUS' && isTerminal(event.status)) {
      for (const l of [...this.endListeners]) {
        try {
          l(executionId, event.status);
        } catch {
          // Telling people must never break the run that ended.
        }
      }
    }
    const set = this.listeners.get(executionId);
    if (!set) return;
    const delivered: DeliveredEvent = Object.freeze({ ...event, sequence, executionId });
    for (const l of [...set]) {
      try {
        l(delivered);
      } catch {
        // A faulty subscriber must not break the run or the other subscribers.
      }
    }
    if (event.kind === 'STATUS' && isTerminal(event.status)) this.sequences.delete(executionId);
  }

  /** Listens to one execution; returns the unsubscribe function. */
  subscribe(executionId: number, listener: Listener): () => void {
    let set = this.listeners.get(executionId);
    if (!set) this.listeners.set(executionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(executionId);
    };
  }

  listenerCount(executionId: number): number {
    return this.listeners.get(executionId)?.size ?? 0;
  }
}
