/**
 * At start: executions left running by a service that stopped without closing (a crash, a
 * power cut) are marked failed with a clear error; they are never left running forever.
 * Queued ones stay queued and start again.
 */
import type { ServiceContext } from '../context';
import type { ExecutionEvents } from './execution-events';
import { ExecutionRecorder } from './execution-recorder';

export const INTERRUPTED_ERROR = 'Interrupted: the service stopped while this execution was running; run it again';

/** Marks interrupted executions failed; returns their ids. */
export function failInterrupted(ctx: ServiceContext, events: ExecutionEvents): number[] {
  const ids = ctx.db
    .prepare<[], { id: number }>("SELECT id FROM executions WHERE status = 'running' ORDER BY id")
    .all()
    .map((r) => r.id);
  for (const id of ids) {
    const rec = new ExecutionRecorder(ctx, events, id);
    rec.log('laneway', 'ERROR', INTERRUPTED_ERROR);
    rec.status('failed', INTERRUPTED_ERROR);
  }
  return ids;
}
