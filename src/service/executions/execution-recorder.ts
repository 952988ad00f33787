/**
 * Records one execution's life in the database and publishes each change on the event bus:
 * the sink engines report to. Overall progress is derived from the processes: the mean of
 * their progress over the number of processes the engine expects (or has reported).
 */
import type { ServiceContext } from '../context';
import type { EngineSink, LogLevel, ProcessStatus } from '../engines/engine';
import { processStartTicks } from '../engines/process-tree';
import { isTerminal, type ExecutionEvents, type LogView } from './execution-events';
import {
  appendLog,
  insertProcess,
  markEnded,
  markRunning,
  setExecutionProgress,
  setProcessGroups,
  setProcessProgress,
  setProcessResources,
  setRunningResources,
  setStatus,
  updateProcess,
} from './execution-records.store';
import { logExecution } from './execution-log';
import { getExecution, getProcess, listProcesses } from './executions.store';

export interface RecordedOutput {
  path: string;
  dataType: string;
  sampleId?: number;
}

const MAX_MESSAGE = 4000;

export class ExecutionRecorder implements EngineSink {
  readonly outputs: RecordedOutput[] = [];
  readonly groups: number[] = [];
  private expected = 0;
  private lastProgress = -1;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: ExecutionEvents,
    readonly executionId: number,
    private readonly onSpawn: (pgid: number) => void = () => {},
  ) {}

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  private current(): { status: string; progress: number; error: string | null } {
    const row = getExecution(this.ctx.db, this.executionId)!;
    return { status: row.status, progress: row.progress, error: row.error };
  }

  /** Moves the execution to a status; terminal statuses also end its unfinished processes. */
  status(status: string, error: string | null = null): void {
    const now = this.now();
    const db = this.ctx.db;
    if (status === 'running') {
      markRunning(db, this.executionId, now);
    } else if (isTerminal(status)) {
      const ended = status === 'completed' ? 'completed' : status;
      for (const p of listProcesses(db, this.executionId)) {
        if (!isTerminal(p.status))
          this.process(p.name, ended === 'completed' ? 'completed' : ended === 'cancelled' ? 'cancelled' : 'failed');
      }
      const progress = status === 'completed' ? 100 : this.current().progress;
      markEnded(db, this.executionId, status, error, now, progress);
    } else {
      setStatus(db, this.executionId, status);
    }
    const row = getExecution(db, this.executionId)!;
    if (status === 'running') logExecution(this.ctx, row, 'started');
    else if (isTerminal(status)) logExecution(this.ctx, row, 'ended');
    this.events.publish(this.executionId, {
      kind: 'STATUS',
      status: row.status,
      progress: row.progress,
      error: row.error,
    });
  }

  process(name: string, status: ProcessStatus, exitCode?: number): void {
    const db = this.ctx.db;
    const now = this.now();
    const existing = getProcess(db, this.executionId, name);
    if (!existing) {
      insertProcess(db, this.executionId, name, status, status === 'queued' ? null : now);
    }
    const start = existing?.start_time ?? (status === 'queued' ? null : now);
    const end = isTerminal(status) ? now : null;
    const progress = status === 'completed' ? 100 : (existing?.progress ?? 0);
    updateProcess(db, this.executionId, name, { status, start, end, progress, exitCode: exitCode ?? null });
    this.derive();
    this.publishProcess(name);
  }

  progress(name: string, progress: number): void {
    const p = Math.max(0, Math.min(100, Math.round(progress * 10) / 10));
    if (!getProcess(this.ctx.db, this.executionId, name)) this.process(name, 'running');
    setProcessProgress(this.ctx.db, this.executionId, name, p);
    this.derive();
    this.publishProcess(name);
  }

  log(process: string, level: LogLevel, message: string): void {
    const timestamp = this.now();
    const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
    const id = appendLog(this.ctx.db, this.executionId, timestamp, process, level, text);
    const log: LogView = { id, timestamp, process, message: text, level };
    this.events.publish(this.executionId, { kind: 'LOG', ...this.current(), log });
  }

  output(path: string, dataType: string, sampleId?: number): void {
    this.outputs.push({ path, dataType, ...(sampleId !== undefined ? { sampleId } : {}) });
  }

  resources(name: string, cpuPercent: number, memoryGb: number): void {
    const cpu = Math.round(cpuPercent * 10) / 10;
    setProcessResources(this.ctx.db, this.executionId, name, cpu, Math.round(memoryGb * 1000) / 1000);
  }

  /** Resources sampled from /proc for the run's process group, given to its running processes. */
  sampled(cpuPercent: number, memoryGb: number): void {
    setRunningResources(this.ctx.db, this.executionId, cpuPercent, memoryGb);
  }

  expect(total: number): void {
    this.expected = total;
    if (this.derive()) this.events.publish(this.executionId, { kind: 'PROGRESS', ...this.current() });
  }

  spawned(pgid: number): void {
    this.groups.push(pgid);
    // Kept so that a service restarted after a crash can end groups it no longer supervises.
    const groups = this.groups.map((g) => ({ pgid: g, start: processStartTicks(g) }));
    setProcessGroups(this.ctx.db, this.executionId, JSON.stringify(groups));
    this.onSpawn(pgid);
  }

  private publishProcess(name: string): void {
    const process = getProcess(this.ctx.db, this.executionId, name)!;
    this.events.publish(this.executionId, { kind: 'PROCESS', ...this.current(), process });
  }

  /**
   * Execution progress from its processes, stored when it grows by a whole percent; true when
   * it did. The process event that caused it carries it to subscribers.
   */
  private derive(): boolean {
    const processes = listProcesses(this.ctx.db, this.executionId);
    // Without a total from the manifest or the engine, leave room for one more process, so
    // that a quick first step does not read as a nearly finished run.
    const count = this.expected > 0 ? Math.max(this.expected, processes.length) : processes.length + 1;
    const sum = processes.reduce((acc, p) => acc + (p.status === 'completed' ? 100 : p.progress), 0);
    const progress = Math.min(99, Math.floor(sum / count));
    // Never backwards: a process the engine had not announced yet must not undo progress shown.
    if (progress <= this.lastProgress) return false;
    this.lastProgress = progress;
    setExecutionProgress(this.ctx.db, this.executionId, progress);
    return true;
  }
}
