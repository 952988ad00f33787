/** The JSON of an execution as the caller sees it (REST), and its response schema. */
import type { ServiceContext } from '../context';
import type { AuthUser } from '../identity/authenticate';
import { accessFields } from '../policy/policy';
import { executionActions } from './execution-actions';
import { executionSampleIds, listOutputs, listProcesses, tailLogs, type ExecutionRow } from './executions.repo';
import { PRIORITY_NAMES } from './run-command';
import { loadSample } from './run-inputs';
import type { RunResources } from './run-resources';
import { canSeeSample, visibleRecords } from '../policy/derived-data';

/** Log entries included in an execution's detail; the logs route pages through the rest. */
export const DETAIL_LOGS = 200;

function duration(row: ExecutionRow, now: number): number | null {
  if (!row.started) return null;
  const end = row.finished ? Date.parse(row.finished) : now;
  return Math.max(0, Math.round((end - Date.parse(row.started)) / 100) / 10);
}

/** Presents one execution; `detail` adds processes, outputs and the latest logs. */
export function presentExecution(ctx: ServiceContext, row: ExecutionRow, user: AuthUser, detail = true) {
  const res = JSON.parse(row.resources) as RunResources;
  const samples = executionSampleIds(ctx.db, row.id).map((id) => ({
    id,
    name: canSeeSample(ctx.db, id, user) ? (loadSample(ctx, id)?.name ?? null) : null,
  }));
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    progress: row.progress,
    created: row.created,
    started: row.started,
    finished: row.finished,
    duration: duration(row, ctx.clock.now()),
    pipeline: { id: row.pipeline_id, name: row.pipeline_name },
    pipeline_version: { id: row.version_id, version: row.version_label },
    samples,
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    priority: PRIORITY_NAMES[row.priority] ?? 'normal',
    resources: { cpus: res.cpus, memory_gb: res.memoryGb, queue: res.queue, time_limit: res.timeLimitSeconds },
    test_mode: row.test_mode === 1,
    upstream_execution: row.upstream_execution_id,
    workflow_checksum: row.workflow_checksum,
    tool_versions: row.tool_versions ? (JSON.parse(row.tool_versions) as Record<string, string | null>) : null,
    rerun_of: row.rerun_of,
    resumes: row.resumes,
    error: row.error,
    ...(detail
      ? {
          process_executions: listProcesses(ctx.db, row.id),
          outputs: visibleRecords(ctx.db, listOutputs(ctx.db, row.id), user),
          logs: tailLogs(ctx.db, row.id, DETAIL_LOGS),
        }
      : {}),
    ...accessFields(ctx.db, 'execution', row.id, user),
    ...executionActions(ctx, row, user),
  };
}

const nullable = (type: string) => ({ type: [type, 'null'] });
const free = { type: 'object', additionalProperties: true } as const;
const actionSchema = {
  type: 'object',
  required: ['allowed', 'reason'],
  properties: { allowed: { type: 'boolean' }, reason: nullable('string') },
} as const;

export const processSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    status: { type: 'string' },
    progress: { type: 'number' },
    start_time: nullable('string'),
    end_time: nullable('string'),
    exit_code: nullable('integer'),
    resources: { type: 'object', properties: { cpu_percent: nullable('number'), memory_gb: nullable('number') } },
  },
} as const;

export const logSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    timestamp: { type: 'string' },
    process: { type: 'string' },
    message: { type: 'string' },
    level: { type: 'string' },
  },
} as const;

export const outputSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    filename: { type: 'string' },
    size: { type: 'integer' },
    data_type: { type: 'string' },
    path: nullable('string'),
    sample_id: nullable('integer'),
  },
} as const;

export const executionSchema = {
  type: 'object',
  required: ['id', 'name', 'status', 'progress', 'created'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    progress: { type: 'number' },
    created: { type: 'string' },
    started: nullable('string'),
    finished: nullable('string'),
    duration: nullable('number'),
    pipeline: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    pipeline_version: { type: 'object', properties: { id: { type: 'integer' }, version: { type: 'string' } } },
    samples: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: nullable('string') } },
    },
    parameters: free,
    metadata: free,
    priority: { type: 'string' },
    resources: {
      type: 'object',
      properties: {
        cpus: { type: 'integer' },
        memory_gb: nullable('number'),
        queue: nullable('string'),
        time_limit: nullable('number'),
      },
    },
    test_mode: { type: 'boolean' },
    upstream_execution: nullable('integer'),
    workflow_checksum: nullable('string'),
    tool_versions: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
    rerun_of: { ...nullable('integer'), description: 'The execution this one re-runs' },
    resumes: { type: 'integer', description: 'How many times this execution was resumed' },
    error: nullable('string'),
    process_executions: { type: 'array', items: processSchema },
    outputs: { type: 'array', items: outputSchema },
    logs: { type: 'array', items: logSchema },
    owner: nullable('string'),
    group_owner: nullable('string'),
    can_edit: { type: 'boolean' },
    can_share: { type: 'boolean' },
    rerun: { ...actionSchema, description: 'Whether the caller can re-run it (POST .../rerun), and why not' },
    resume: { ...actionSchema, description: 'Whether the caller can resume it (POST .../resume), and why not' },
  },
} as const;
