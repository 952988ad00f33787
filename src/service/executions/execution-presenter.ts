/** The JSON of an execution as the caller sees it (REST). */
import type { ExecutionStatus } from '../../shared/service-api/executions';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { accessFields } from '../policy/policy';
import { executionActions } from './execution-actions';
import { executionSampleIds, listOutputs, listProcesses, tailLogs, type ExecutionRow } from './executions.store';
import { PRIORITY_NAMES } from './run-command';
import { loadSample } from './run-inputs';
import type { RunResources } from '../engines/run-resources';
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
    // The column's CHECK constraint holds exactly the statuses of the API.
    status: row.status as ExecutionStatus,
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
