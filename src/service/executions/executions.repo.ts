/**
 * SQL of executions, their process executions and logs. Synchronous (better-sqlite3), so a
 * write and the event that announces it happen in one tick.
 */
import type { Db } from '../db/database';
import type { LogView, ProcessView } from './execution-events';

export interface ExecutionRow {
  id: number;
  name: string;
  pipeline_id: number;
  version_id: number;
  pipeline_name: string;
  version_label: string;
  status: string;
  progress: number;
  priority: number;
  parameters: string;
  metadata: string;
  resources: string;
  test_mode: number;
  upstream_execution_id: number | null;
  error: string | null;
  created: string;
  started: string | null;
  finished: string | null;
  callback_secret: string;
  process_groups: string;
  owner_user_id: number | null;
  owner_group_id: number | null;
}

interface ProcessRow {
  name: string;
  status: string;
  progress: number;
  start_time: string | null;
  end_time: string | null;
  exit_code: number | null;
  cpu_percent: number | null;
  memory_gb: number | null;
}

/** A process row as the API shows it. */
export function processView(r: ProcessRow): ProcessView {
  return {
    name: r.name,
    status: r.status,
    progress: r.progress,
    start_time: r.start_time,
    end_time: r.end_time,
    exit_code: r.exit_code,
    resources: { cpu_percent: r.cpu_percent, memory_gb: r.memory_gb },
  };
}

/** One execution's row, or undefined. */
export function getExecution(db: Db, id: number): ExecutionRow | undefined {
  return db.prepare<[number], ExecutionRow>('SELECT * FROM executions WHERE id = ?').get(id);
}

/** Sample ids of an execution, in the order given at run time. */
export function executionSampleIds(db: Db, id: number): number[] {
  return db
    .prepare<[number], { sample_id: number }>(
      'SELECT sample_id FROM execution_samples WHERE execution_id = ? ORDER BY position',
    )
    .all(id)
    .map((r) => r.sample_id);
}

/** Process executions of an execution, in start order. */
export function listProcesses(db: Db, id: number): ProcessView[] {
  return db
    .prepare<[number], ProcessRow>('SELECT * FROM process_executions WHERE execution_id = ? ORDER BY id')
    .all(id)
    .map(processView);
}

/** One process execution by name. */
export function getProcess(db: Db, executionId: number, name: string): ProcessView | undefined {
  const row = db
    .prepare<[number, string], ProcessRow>('SELECT * FROM process_executions WHERE execution_id = ? AND name = ?')
    .get(executionId, name);
  return row ? processView(row) : undefined;
}

/** Log entries after a cursor (the id of the last entry seen), oldest first. */
export function listLogs(db: Db, id: number, after = 0, limit = 1000): LogView[] {
  return db
    .prepare<[number, number, number], LogView>(
      'SELECT id, timestamp, process, message, level FROM execution_logs WHERE execution_id = ? AND id > ? ORDER BY id LIMIT ?',
    )
    .all(id, after, limit);
}

/** The newest `limit` log entries, oldest first. */
export function tailLogs(db: Db, id: number, limit: number): LogView[] {
  return db
    .prepare<[number, number], LogView>(
      'SELECT * FROM (SELECT id, timestamp, process, message, level FROM execution_logs WHERE execution_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id',
    )
    .all(id, limit);
}

export interface OutputView {
  id: number;
  filename: string;
  size: number;
  data_type: string;
  path: string | null;
  sample_id: number | null;
}

/** Output data records of an execution. */
export function listOutputs(db: Db, id: number): OutputView[] {
  return db
    .prepare<[number], OutputView>(
      'SELECT id, filename, size, data_type, path, sample_id FROM data_files WHERE execution_id = ? ORDER BY id',
    )
    .all(id);
}
