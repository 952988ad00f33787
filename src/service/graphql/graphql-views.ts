/** GraphQL (camelCase) views of pipelines, executions and execution updates. */
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import type { DeliveredEvent, ExecutionEvent, LogView, ProcessView } from '../executions/execution-events';
import { presentExecution } from '../executions/execution-presenter';
import type { ExecutionRow } from '../executions/executions.store';
import type { Catalogue, CataloguePipeline } from '../pipelines/catalogue';
import { presentPipeline } from '../pipelines/pipeline-presenter';

/** A process execution as GraphQL shows it. */
export function gqlProcess(p: ProcessView) {
  return {
    process: p.name,
    status: p.status,
    progress: p.progress,
    startTime: p.start_time,
    endTime: p.end_time,
    exitCode: p.exit_code,
    resources: { cpuPercent: p.resources.cpu_percent, memoryGb: p.resources.memory_gb },
  };
}

/** A log entry as GraphQL shows it. */
export function gqlLog(l: LogView) {
  return { id: String(l.id), timestamp: l.timestamp, process: l.process, message: l.message, level: l.level };
}

/** A pipeline as GraphQL shows it. */
export function gqlPipeline(catalogue: Catalogue, p: CataloguePipeline, user: AuthUser) {
  const r = presentPipeline(catalogue, p, user);
  return {
    id: String(r.id),
    name: r.name,
    description: r.description,
    category: { id: String(r.category.id), name: r.category.name },
    estimatedRuntime: r.estimated_runtime,
    upstreamPipelines: r.upstream_pipelines.map((u) => ({ id: u.id === null ? null : String(u.id), name: u.name })),
    requiredDataTypes: r.required_data_types.map((name) => ({ name })),
    supportedOrganisms: r.supported_organisms.map((name) => ({ name })),
    versions: r.versions.map((v) => ({
      id: String(v.id),
      version: v.version,
      isLatest: v.is_latest,
      canRun: v.can_run,
      reason: v.reason,
      engine: v.engine,
      parameters: v.parameters,
      requirements: {
        minSamples: v.requirements.min_samples,
        maxSamples: v.requirements.max_samples ?? null,
        requiredDataTypes: v.requirements.required_data_types,
        supportedOrganisms: v.requirements.supported_organisms,
      },
    })),
  };
}

/** An execution as GraphQL shows it. */
export function gqlExecution(ctx: ServiceContext, row: ExecutionRow, user: AuthUser) {
  const e = presentExecution(ctx, row, user);
  return {
    id: String(e.id),
    name: e.name,
    status: e.status,
    progress: e.progress,
    created: e.created,
    started: e.started,
    finished: e.finished,
    duration: e.duration,
    pipeline: { id: String(e.pipeline.id), name: e.pipeline.name },
    pipelineVersion: { id: String(e.pipeline_version.id), version: e.pipeline_version.version },
    samples: e.samples.map((s) => ({ id: String(s.id), name: s.name })),
    parameters: e.parameters,
    metadata: e.metadata,
    priority: e.priority,
    testMode: e.test_mode,
    upstreamExecution: e.upstream_execution === null ? null : String(e.upstream_execution),
    rerunOf: e.rerun_of === null ? null : String(e.rerun_of),
    resumes: e.resumes,
    rerun: e.rerun,
    resume: e.resume,
    error: e.error,
    processExecutions: (e.process_executions ?? []).map(gqlProcess),
    outputs: (e.outputs ?? []).map((o) => ({
      id: String(o.id),
      filename: o.filename,
      size: o.size,
      dataType: o.data_type,
      path: o.path,
    })),
    logs: (e.logs ?? []).map(gqlLog),
  };
}

export type ExecutionUpdate = {
  id: string;
  kind: 'SNAPSHOT' | ExecutionEvent['kind'];
  sequence: number;
  status: string;
  progress: number;
  error: string | null;
  processExecutions: ReturnType<typeof gqlProcess>[];
  logs: ReturnType<typeof gqlLog>[];
};

const payloads = new WeakMap<DeliveredEvent, { executionUpdates: ExecutionUpdate }>();

/**
 * One bus event as the subscription's payload, carrying just that change. Built once per event
 * and shared by every subscriber, so that the executed result can be shared too.
 */
export function gqlUpdatePayload(e: DeliveredEvent): { executionUpdates: ExecutionUpdate } {
  let payload = payloads.get(e);
  if (!payload) {
    payload = {
      executionUpdates: {
        id: String(e.executionId),
        kind: e.kind,
        sequence: e.sequence,
        status: e.status,
        progress: e.progress,
        error: e.error,
        processExecutions: e.kind === 'PROCESS' ? [gqlProcess(e.process)] : [],
        logs: e.kind === 'LOG' ? [gqlLog(e.log)] : [],
      },
    };
    payloads.set(e, payload);
  }
  return payload;
}
