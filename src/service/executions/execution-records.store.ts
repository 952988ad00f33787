/**
 * The writes of a running execution: its status and progress, its processes, their resources
 * and its log. Statements are prepared once per database (progress arrives many per second).
 */
import type { Db } from '../db/database';
import { stmt } from './executions.store';

/** Marks an execution running since `now`. */
export function markRunning(db: Db, id: number, now: string): void {
  stmt(db, "UPDATE executions SET status = 'running', started = ? WHERE id = ?").run(now, id);
}

/** Ends an execution with a terminal status. */
export function markEnded(
  db: Db,
  id: number,
  status: string,
  error: string | null,
  now: string,
  progress: number,
): void {
  stmt(db, 'UPDATE executions SET status = ?, error = ?, finished = ?, progress = ? WHERE id = ?').run(
    status,
    error,
    now,
    progress,
    id,
  );
}

/** Sets an execution's status (not terminal, not running). */
export function setStatus(db: Db, id: number, status: string): void {
  stmt(db, 'UPDATE executions SET status = ? WHERE id = ?').run(status, id);
}

/** Sets an execution's overall progress. */
export function setExecutionProgress(db: Db, id: number, progress: number): void {
  stmt(db, 'UPDATE executions SET progress = ? WHERE id = ?').run(progress, id);
}

/** Records the process groups of a run (JSON), to end them after a crash. */
export function setProcessGroups(db: Db, id: number, groups: string): void {
  stmt(db, 'UPDATE executions SET process_groups = ? WHERE id = ?').run(groups, id);
}

/** Adds a process to an execution. */
export function insertProcess(db: Db, id: number, name: string, status: string, start: string | null): void {
  stmt(db, 'INSERT INTO process_executions (execution_id, name, status, start_time) VALUES (?, ?, ?, ?)').run(
    id,
    name,
    status,
    start,
  );
}

export interface ProcessState {
  status: string;
  start: string | null;
  end: string | null;
  progress: number;
  /** Kept when null. */
  exitCode: number | null;
}

/** Updates a process's status, times, progress and exit code. */
export function updateProcess(db: Db, id: number, name: string, s: ProcessState): void {
  stmt(
    db,
    'UPDATE process_executions SET status = ?, start_time = ?, end_time = ?, progress = ?, exit_code = COALESCE(?, exit_code) WHERE execution_id = ? AND name = ?',
  ).run(s.status, s.start, s.end, s.progress, s.exitCode, id, name);
}

/** Sets a process's progress. */
export function setProcessProgress(db: Db, id: number, name: string, progress: number): void {
  stmt(db, 'UPDATE process_executions SET progress = ? WHERE execution_id = ? AND name = ?').run(progress, id, name);
}

/** Sets a process's CPU and memory as its engine reported them. */
export function setProcessResources(db: Db, id: number, name: string, cpuPercent: number, memoryGb: number): void {
  stmt(db, 'UPDATE process_executions SET cpu_percent = ?, memory_gb = ? WHERE execution_id = ? AND name = ?').run(
    cpuPercent,
    memoryGb,
    id,
    name,
  );
}

/** Gives sampled CPU and (peak) memory to the running processes of an execution. */
export function setRunningResources(db: Db, id: number, cpuPercent: number, memoryGb: number): void {
  stmt(
    db,
    "UPDATE process_executions SET cpu_percent = ?, memory_gb = MAX(COALESCE(memory_gb, 0), ?) WHERE execution_id = ? AND status = 'running'",
  ).run(cpuPercent, memoryGb, id);
}

/** Appends a log entry; answers its id (the logs route's cursor). */
export function appendLog(
  db: Db,
  id: number,
  timestamp: string,
  process: string,
  level: string,
  message: string,
): number {
  const { lastInsertRowid } = stmt(
    db,
    'INSERT INTO execution_logs (execution_id, timestamp, process, level, message) VALUES (?, ?, ?, ?, ?)',
  ).run(id, timestamp, process, level, message);
  return Number(lastInsertRowid);
}
