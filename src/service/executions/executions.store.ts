/**
 * SQL of executions, their process executions and logs. Synchronous (better-sqlite3), so a
 * write and the event that announces it happen in one tick.
 */
import type { Statement } from 'better-sqlite3';
import type { PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';
import type { AuthUser } from '../auth/authenticate';
import { visibleWhere } from '../policy/policy';
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
  /** Provenance, recorded when the run starts (null before, and for runs of older versions). */
  workflow_checksum: string | null;
  tool_versions: string | null;
  rerun_of: number | null;
  resumes: number;
}

const statements = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, prepared once per database: progress steps arrive many per second. */
export function stmt<P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Statement<P, R> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s as unknown as Statement<P, R>;
}

/** A row of process_executions: the view's fields, with the resources as columns. */
type ProcessRow = Omit<ProcessView, 'resources'> & ProcessView['resources'];

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
  return stmt<[number], ExecutionRow>(db, 'SELECT * FROM executions WHERE id = ?').get(id);
}

/** Sample ids of an execution, in the order given at run time. */
export function executionSampleIds(db: Db, id: number): number[] {
  return stmt<[number], { sample_id: number }>(
    db,
    'SELECT sample_id FROM execution_samples WHERE execution_id = ? ORDER BY position',
  )
    .all(id)
    .map((r) => r.sample_id);
}

/** Process executions of an execution, in start order. */
export function listProcesses(db: Db, id: number): ProcessView[] {
  return stmt<[number], ProcessRow>(db, 'SELECT * FROM process_executions WHERE execution_id = ? ORDER BY id')
    .all(id)
    .map(processView);
}

/** One process execution by name. */
export function getProcess(db: Db, executionId: number, name: string): ProcessView | undefined {
  const row = stmt<[number, string], ProcessRow>(
    db,
    'SELECT * FROM process_executions WHERE execution_id = ? AND name = ?',
  ).get(executionId, name);
  return row ? processView(row) : undefined;
}

/** Log entries after a cursor (the id of the last entry seen), oldest first. */
export function listLogs(db: Db, id: number, after = 0, limit = 1000): LogView[] {
  return stmt<[number, number, number], LogView>(
    db,
    'SELECT id, timestamp, process, message, level FROM execution_logs WHERE execution_id = ? AND id > ? ORDER BY id LIMIT ?',
  ).all(id, after, limit);
}

/** The newest `limit` log entries, oldest first. */
export function tailLogs(db: Db, id: number, limit: number): LogView[] {
  return stmt<[number, number], LogView>(
    db,
    'SELECT * FROM (SELECT id, timestamp, process, message, level FROM execution_logs WHERE execution_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id',
  ).all(id, limit);
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
  return stmt<[number], OutputView>(
    db,
    'SELECT id, filename, size, data_type, path, sample_id FROM data_files WHERE execution_id = ? ORDER BY id',
  ).all(id);
}

/** Sample names by id (the QC summary's rows; issue 20). */
export function sampleNamesByIds(db: Db, ids: readonly number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT id, name FROM samples WHERE id IN (${ids.map(() => '?').join(', ')})`)
    .all(...ids) as Array<{ id: number; name: string }>;
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Filters of the execution list: status, pipeline (id or name), sample (id). */
export interface ExecutionFilter {
  status?: string;
  pipeline?: string;
  sample?: number;
  /** Executions on any sample of this project (the Flow mount's `/projects/{id}/executions`). */
  project?: number;
  /** Only executions this user owns. */
  owner?: number;
  /** ISO times: created after / before (the Flow mount's created_gt / created_lt). */
  createdAfter?: string;
  createdBefore?: string;
  /** Newest first unless told. */
  order?: 'newest' | 'oldest' | 'name' | '-name';
}

const EXECUTION_ORDER = {
  newest: 'e.id DESC',
  oldest: 'e.id ASC',
  name: 'e.name ASC, e.id',
  '-name': 'e.name DESC, e.id',
};

/** One page of the executions the caller can see, newest first. */
export function executionPage(db: Db, user: AuthUser, q: ExecutionFilter, page: PageQuery) {
  const visible = visibleWhere('execution', 'e', user);
  const where = [visible.sql];
  const params: unknown[] = [...visible.params];
  const filter = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (q.status) filter('e.status = ?', q.status);
  if (q.pipeline && /^\d+$/.test(q.pipeline)) filter('e.pipeline_id = ?', Number(q.pipeline));
  else if (q.pipeline) filter('lower(e.pipeline_name) = lower(?)', q.pipeline);
  if (q.sample) filter('e.id IN (SELECT execution_id FROM execution_samples WHERE sample_id = ?)', q.sample);
  if (q.project)
    filter(
      `e.id IN (SELECT es.execution_id FROM execution_samples es
        JOIN project_samples ps ON ps.sample_id = es.sample_id WHERE ps.project_id = ?)`,
      q.project,
    );
  if (q.owner !== undefined) filter('e.owner_user_id = ?', q.owner);
  if (q.createdAfter) filter('e.created > ?', q.createdAfter);
  if (q.createdBefore) filter('e.created < ?', q.createdBefore);
  const orderBy = EXECUTION_ORDER[q.order ?? 'newest'];
  return selectPage<ExecutionRow>(
    db,
    { from: 'executions e', where: { sql: where.join(' AND '), params }, orderBy, columns: 'e.*' },
    page,
  );
}

/** Queued executions, head of the queue first (priority, then age). */
export function queuedExecutions(db: Db): ExecutionRow[] {
  return stmt<[], ExecutionRow>(
    db,
    "SELECT * FROM executions WHERE status = 'queued' ORDER BY priority DESC, id ASC",
  ).all();
}

/** Executions left running (by a process that ended without finishing them), with their process groups. */
export function runningExecutions(db: Db): Array<{ id: number; process_groups: string }> {
  return db
    .prepare<[], { id: number; process_groups: string }>(
      "SELECT id, process_groups FROM executions WHERE status = 'running' ORDER BY id",
    )
    .all();
}

/** Records what a run ran with: its workflow's checksum and its tools' versions (JSON). */
export function setProvenance(db: Db, id: number, workflowChecksum: string | null, toolVersions: string): void {
  db.prepare('UPDATE executions SET workflow_checksum = ?, tool_versions = ? WHERE id = ?').run(
    workflowChecksum,
    toolVersions,
    id,
  );
}

/** Reopens a failed execution for a resume; false when it is no longer failed. */
export function reopenForResume(db: Db, id: number): boolean {
  const { changes } = db
    .prepare(
      "UPDATE executions SET error = NULL, finished = NULL, resumes = resumes + 1 WHERE id = ? AND status = 'failed'",
    )
    .run(id);
  return changes > 0;
}

export type NewExecutionRow = Pick<
  ExecutionRow,
  | 'name'
  | 'pipeline_id'
  | 'version_id'
  | 'pipeline_name'
  | 'version_label'
  | 'priority'
  | 'parameters'
  | 'metadata'
  | 'resources'
  | 'test_mode'
  | 'upstream_execution_id'
  | 'created'
  | 'callback_secret'
  | 'owner_user_id'
  | 'owner_group_id'
  | 'rerun_of'
>;

/** Inserts a queued execution with its samples in order (inside the caller's transaction); answers its id. */
export function insertExecution(db: Db, e: NewExecutionRow, sampleIds: readonly number[]): number {
  const info = db
    .prepare(
      `INSERT INTO executions (name, pipeline_id, version_id, pipeline_name, version_label, status, progress, priority,
         parameters, metadata, resources, test_mode, upstream_execution_id, created, callback_secret, owner_user_id, owner_group_id,
         rerun_of)
       VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      e.name,
      e.pipeline_id,
      e.version_id,
      e.pipeline_name,
      e.version_label,
      e.priority,
      e.parameters,
      e.metadata,
      e.resources,
      e.test_mode,
      e.upstream_execution_id,
      e.created,
      e.callback_secret,
      e.owner_user_id,
      e.owner_group_id,
      e.rerun_of,
    );
  const id = Number(info.lastInsertRowid);
  const add = db.prepare('INSERT INTO execution_samples (execution_id, sample_id, position) VALUES (?, ?, ?)');
  sampleIds.forEach((s, i) => add.run(id, s, i));
  return id;
}
