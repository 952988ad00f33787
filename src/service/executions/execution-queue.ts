/**
 * The execution queue: queued executions start in order of priority, then age, when the CPUs
 * and memory they ask for fit in what this machine has left. The head of the queue waits for
 * room rather than being overtaken, so a large high-priority run is never starved. Cancel and
 * time limits abort a run, which kills its process groups; closing the service stops every run.
 */
import { audit, type AuditActor } from '../audit/audit-log';
import { runAfter } from '../context';
import { queuedExecutions, type ExecutionRow } from './executions.store';
import { getExecution } from './executions.store';
import { isTerminal } from './execution-events';
import { ExecutionRecorder } from './execution-recorder';
import { runExecution, StopReason, type RunnerDeps } from './execution-runner';
import { machineCapacity, type Capacity, type RunResources } from '../engines/run-resources';

interface Running {
  controller: AbortController;
  cpus: number;
  memoryGb: number;
  done: Promise<void>;
  /** Ends the time-limit timer (the context's clock, so tests fire it instead of waiting). */
  stopTimer: (() => void) | null;
}

/** The resources stored with an execution at run time. */
export function storedResources(row: ExecutionRow): RunResources {
  return JSON.parse(row.resources) as RunResources;
}

export class ExecutionQueue {
  private running = new Map<number, Running>();
  private closed = false;

  constructor(
    private readonly deps: RunnerDeps,
    readonly capacity: Capacity = machineCapacity(),
  ) {}

  /** Starts whatever fits, head of the queue first. */
  kick(): void {
    if (this.closed) return;
    const queued = queuedExecutions(this.deps.ctx.db);
    for (const row of queued) {
      const res = storedResources(row);
      const used = [...this.running.values()].reduce(
        (acc, r) => ({ cpus: acc.cpus + r.cpus, memoryGb: acc.memoryGb + r.memoryGb }),
        { cpus: 0, memoryGb: 0 },
      );
      // A cluster run's jobs run elsewhere; here it holds one CPU for the engine's driver.
      const local = res.local !== false;
      const cpus = local ? Math.min(res.cpus, this.capacity.cpus) : 1;
      const memoryGb = local ? Math.min(res.memoryGb ?? 0, this.capacity.memoryGb) : 0;
      if (used.cpus + cpus > this.capacity.cpus || used.memoryGb + memoryGb > this.capacity.memoryGb) return;
      this.start(row, res, cpus, memoryGb);
    }
  }

  private start(row: ExecutionRow, res: RunResources, cpus: number, memoryGb: number): void {
    const controller = new AbortController();
    const stopTimer = res.timeLimitSeconds
      ? runAfter(this.deps.ctx.clock, res.timeLimitSeconds * 1000, () =>
          controller.abort(
            new StopReason('failed', `Time limit of ${res.timeLimitSeconds} s exceeded: the run was stopped`),
          ),
        )
      : null;
    const entry: Running = { controller, cpus, memoryGb, stopTimer, done: Promise.resolve() };
    this.running.set(row.id, entry);
    entry.done = runExecution(this.deps, row, res.local === false ? res : { ...res, cpus }, controller.signal).finally(
      () => {
        entry.stopTimer?.();
        this.running.delete(row.id);
        this.kick();
      },
    );
  }

  /** Cancels a queued or running execution; false when it had already finished. */
  cancel(id: number, by: AuditActor): boolean {
    const row = getExecution(this.deps.ctx.db, id);
    if (!row || isTerminal(row.status)) return false;
    const running = this.running.get(id);
    audit(this.deps.ctx, by, 'cancelled', { kind: 'execution', id, name: row.name }, { was: row.status });
    if (running) {
      running.controller.abort(new StopReason('cancelled', `Cancelled by ${by.username}`));
      return true;
    }
    const rec = new ExecutionRecorder(this.deps.ctx, this.deps.events, id);
    rec.log('laneway', 'INFO', `Cancelled by ${by.username} before it started`);
    rec.status('cancelled', `Cancelled by ${by.username}`);
    return true;
  }

  /** Resolves when the execution's run has ended (immediately when not running). */
  async settled(id: number): Promise<void> {
    await this.running.get(id)?.done;
  }

  isRunning(id: number): boolean {
    return this.running.has(id);
  }

  /** Stops every run (the service is closing): they end failed, their processes killed. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    for (const r of all) {
      r.controller.abort(new StopReason('failed', 'Interrupted: the service stopped while this execution was running'));
    }
    await Promise.all(all.map((r) => r.done));
  }
}
