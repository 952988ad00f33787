/**
 * Re-run and resume, shared by REST and GraphQL. A re-run is a new execution with the same
 * version, samples, parameters, resources, priority and metadata (any of them changed by the
 * request), through the run command's own checks. A resume puts a failed or interrupted
 * execution back in the queue on its kept work folder, for engines that can continue a run.
 */
import type { ServiceContext } from '../context';
import { audit } from '../audit/audit-log';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { requireAccess } from '../policy/policy';
import type { Catalogue } from '../pipelines/catalogue';
import { RESUMING_ENGINES, resumeState, rerunState } from './execution-actions';
import type { ExecutionEvents } from './execution-events';
import { storedResources, type ExecutionQueue } from './execution-queue';
import { ExecutionRecorder } from './execution-recorder';
import { executionSampleIds, getExecution, reopenForResume, type ExecutionRow } from './executions.store';
import { createRun, PRIORITY_NAMES, type RunInput } from './run-command';
import { loadSample } from './run-inputs';

/** What a re-run may change; everything else is taken from the execution it repeats. */
export type RerunInput = Omit<RunInput, 'upstream_execution'>;

/** Starts a new execution with the settings of execution `id`, changed by `input`. */
export function rerunExecution(
  ctx: ServiceContext,
  catalogue: Catalogue,
  queue: ExecutionQueue,
  user: AuthUser,
  id: number,
  input: RerunInput,
): ExecutionRow {
  requireAccess(ctx.db, 'execution', id, user, 'view');
  const row = getExecution(ctx.db, id)!;
  if (!user.canRunPipelines) throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Your account may not run pipelines');
  const state = rerunState(catalogue, row, user);
  if (!state.allowed) throw new ApiError('CONFLICT', `Execution ${id} cannot be re-run: ${state.reason}`);
  const samples = input.samples ?? executionSampleIds(ctx.db, id);
  if (input.samples === undefined) {
    const gone = samples.filter((s) => !loadSample(ctx, s));
    if (gone.length) {
      throw new ApiError('INVALID_SAMPLES', 'Some samples of that execution were deleted: choose samples', {
        invalid_samples: gone.map((s) => ({ sample_id: s, reason: `sample ${s} was deleted` })),
      });
    }
  }
  const stored = storedResources(row);
  const run: RunInput = {
    name: input.name ?? row.name,
    samples,
    parameters: { ...(JSON.parse(row.parameters) as Record<string, unknown>), ...(input.parameters ?? {}) },
    metadata: input.metadata ?? (JSON.parse(row.metadata) as Record<string, unknown>),
    upstream_execution: row.upstream_execution_id,
    priority: input.priority ?? PRIORITY_NAMES[row.priority] ?? 'normal',
    resources: {
      cpus: stored.cpus,
      memory: stored.memoryGb,
      queue: stored.queue,
      time_limit: stored.timeLimitSeconds,
      ...(input.resources ?? {}),
    },
    test_mode: input.test_mode ?? row.test_mode === 1,
    ...(input.group_owner !== undefined ? { group_owner: input.group_owner } : {}),
  };
  const created = createRun(ctx, catalogue, queue.capacity, user, row.version_id, run, { rerunOf: id });
  queue.kick();
  return created;
}

/** Puts failed execution `id` back in the queue to continue on its kept work folder. */
export function resumeExecution(
  ctx: ServiceContext,
  catalogue: Catalogue,
  queue: ExecutionQueue,
  events: ExecutionEvents,
  user: AuthUser,
  id: number,
): ExecutionRow {
  requireAccess(ctx.db, 'execution', id, user, 'view');
  if (!user.canRunPipelines) throw new ApiError('INSUFFICIENT_PERMISSIONS', 'Your account may not run pipelines');
  requireAccess(ctx.db, 'execution', id, user, 'edit');
  const row = getExecution(ctx.db, id)!;
  const state = resumeState(ctx, catalogue, row, user);
  if (!state.allowed) throw new ApiError('NOT_RESUMABLE', `Execution ${id} cannot be resumed: ${state.reason}`);
  const engine = RESUMING_ENGINES[catalogue.version(row.version_id)!.version.manifest.engine.kind];
  const resumed = ctx.db.transaction(() => {
    const reopened = reopenForResume(ctx.db, id);
    if (reopened) audit(ctx, user, 'resumed', { kind: 'execution', id, name: row.name }, { resumes: row.resumes + 1 });
    return reopened;
  })();
  if (!resumed) throw new ApiError('NOT_RESUMABLE', `Execution ${id} cannot be resumed: it is no longer failed`);
  const rec = new ExecutionRecorder(ctx, events, id);
  rec.log('laneway', 'INFO', `Resumed by ${user.username} on its kept work folder (${engine})`);
  rec.status('queued');
  // Answered as queued, like a new run: the queue may start it within this call.
  const queued = getExecution(ctx.db, id)!;
  queue.kick();
  return queued;
}
