/**
 * Executions in Flow's shape (FLOW-WIRE.md P1-17, P1-18): status "" while queued or running,
 * then OK, ERROR or CANCELED; Unix times; the pipeline and version by name; outputs as
 * `downstream_data` (the list) and per process (the detail), downloadable at
 * /downloads/{id}/{filename}.
 */
import type { ServiceContext } from '../context';
import { presentExecution } from '../executions/execution-presenter';
import type { ExecutionRow } from '../executions/executions.store';
import type { AuthUser } from '../auth/authenticate';
import { flowLogFrom } from './flow-execution-log';
import { unix } from './flow-sample.presenter';

/** Laneway's status as Flow spells it. */
export function flowStatus(status: string): string {
  switch (status) {
    case 'completed':
      return 'OK';
    case 'failed':
      return 'ERROR';
    case 'cancelled':
      return 'CANCELED';
    default:
      return '';
  }
}

/** A step's status as Flow's process executions spell it. */
function stepStatus(status: string): string {
  return status.toUpperCase();
}

function outputsOf(e: ReturnType<typeof presentExecution>) {
  return (e.outputs ?? []).map((o) => ({
    id: String(o.id),
    filename: o.filename,
    filetype: o.data_type,
    size: o.size,
    process_execution_name: null as string | null,
    sample: o.sample_id === null ? null : String(o.sample_id),
  }));
}

/** An item of /executions/search; `withData` adds the outputs (`return_data=true`). */
export function flowExecutionSummary(ctx: ServiceContext, row: ExecutionRow, user: AuthUser, withData: boolean) {
  const e = presentExecution(ctx, row, user, withData);
  return {
    id: String(e.id),
    identifier: e.name,
    pipeline_name: e.pipeline.name,
    pipeline_version: e.pipeline_version.version,
    created: unix(e.created),
    started: e.started === null ? null : Date.parse(e.started) / 1000,
    finished: e.finished === null ? null : Date.parse(e.finished) / 1000,
    status: flowStatus(e.status),
    can_delete: e.can_edit,
    retries: 0,
    retried_by: null,
    fileset: null,
    sample_name: e.samples.length === 1 ? e.samples[0]!.name : null,
    owner_name: e.owner,
    ...(withData ? { downstream_data: outputsOf(e) } : {}),
  };
}

/** GET /executions/{id} (and the answer of a run); `logFrom`: the log from that byte offset. */
export function flowExecutionDetail(ctx: ServiceContext, row: ExecutionRow, user: AuthUser, logFrom = 0) {
  const e = presentExecution(ctx, row, user, true);
  return {
    ...flowExecutionSummary(ctx, row, user, true),
    uuid: null,
    nextflow_version: null,
    stdout: '',
    stderr: e.error ?? '',
    log: flowLogFrom(ctx.db, row.id, logFrom),
    command: '',
    params: e.parameters,
    data_params: {},
    csv_params: {},
    pipeline: { id: String(e.pipeline.id), name: e.pipeline.name, version: e.pipeline_version.version },
    sample: e.samples.length === 1 ? { id: String(e.samples[0]!.id), name: e.samples[0]!.name } : null,
    samples: e.samples.map((s) => ({ id: String(s.id), name: s.name })),
    project: null,
    owner: e.owner ? { username: e.owner, name: e.owner } : null,
    group_owner: e.group_owner,
    laneway_status: e.status,
    process_executions: (e.process_executions ?? []).map((p) => ({
      id: p.name,
      identifier: p.name,
      name: p.name,
      process_name: p.name,
      status: stepStatus(p.status),
      started: p.start_time ? Date.parse(p.start_time) / 1000 : null,
      finished: p.end_time ? Date.parse(p.end_time) / 1000 : null,
      exit_code: p.exit_code,
    })),
  };
}
