/**
 * At start: executions left running by a service that stopped without closing (a crash, a
 * power cut) are marked failed with a clear error; they are never left running forever.
 * Queued ones stay queued and start again.
 */
import type { ServiceContext } from '../context';
import { processStartTicks, signalGroup } from '../engines/process-tree';
import type { ExecutionEvents } from './execution-events';
import { ExecutionRecorder } from './execution-recorder';
import { runningExecutions } from './executions.store';

export const INTERRUPTED_ERROR = 'Interrupted: the service stopped while this execution was running; run it again';

/** Ends process groups an interrupted run left behind (same pid and start time only). */
function endLeftovers(groups: string): void {
  let list: Array<{ pgid: number; start: number | null }> = [];
  try {
    list = JSON.parse(groups) as typeof list;
  } catch {
    return;
  }
  for (const g of list) {
    if (g.start !== null && processStartTicks(g.pgid) === g.start) signalGroup(g.pgid, 'SIGKILL');
  }
}

/** Marks interrupted executions failed and ends their leftover processes; returns their ids. */
export function failInterrupted(ctx: ServiceContext, events: ExecutionEvents): number[] {
  const rows = runningExecutions(ctx.db);
  const ids = rows.map((r) => r.id);
  for (const row of rows) {
    endLeftovers(row.process_groups);
    const id = row.id;
    const rec = new ExecutionRecorder(ctx, events, id);
    rec.log('laneway', 'ERROR', INTERRUPTED_ERROR);
    rec.status('failed', INTERRUPTED_ERROR);
  }
  return ids;
}
