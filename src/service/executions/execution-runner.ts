/**
 * Runs one execution from start to end: prepares its folders and inputs, runs its engine with
 * the recorder as sink, samples the engine's process groups (group-usage.ts), enforces the time
 * limit, registers outputs as data records, and settles the final status (completed, failed
 * or cancelled) whatever happens.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ServiceContext } from '../context';
import { createDataRecord } from '../data/data.commands';
import { EngineError } from '../engines/engine';
import { engineFor } from '../engines/engine-for';
import { GroupSampler, platformUsageSource } from '../engines/group-usage';
import type { Catalogue } from '../pipelines/catalogue';
import { copyProblem, workflowCopyDir } from '../pipelines/workflow-copies';
import { prepareFileInputs } from './file-inputs';
import { multiqcReport } from '../tools/multiqc/execution-report';
import { recordProvenance } from './provenance';
import type { ExecutionEvents } from './execution-events';
import { ExecutionRecorder } from './execution-recorder';
import type { ExecutionRow } from './executions.store';
import { jobSamples } from './run-inputs';
import type { RunResources } from '../engines/run-resources';
import { diskNearlyFull } from '../storage/disk-space';
import { isStorageFull } from '../http/storage-errors';
import { writeWhenSpace } from '../storage/write-when-space';

/** Why a run was stopped from outside. */
export class StopReason extends Error {
  constructor(
    readonly status: 'cancelled' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'StopReason';
  }
}

/** Reads in test_mode: a small subsample of each input. */
export const TEST_MODE_READS = 10_000;
/** How often running process groups are sampled (LANEWAY_SAMPLE_INTERVAL_MS sets it). */
function sampleIntervalMs(): number {
  const ms = Number(process.env.LANEWAY_SAMPLE_INTERVAL_MS);
  return Number.isFinite(ms) && ms >= 100 ? ms : 1000;
}

export interface RunnerDeps {
  ctx: ServiceContext;
  catalogue: Catalogue;
  events: ExecutionEvents;
  serviceUrl(): string;
}

/** Runs one execution to its final status; never throws. */
export async function runExecution(
  deps: RunnerDeps,
  row: ExecutionRow,
  resources: RunResources,
  signal: AbortSignal,
): Promise<void> {
  const { ctx } = deps;
  const samplers: GroupSampler[] = [];
  const source = platformUsageSource();
  const rec = new ExecutionRecorder(ctx, deps.events, row.id, (pgid) => {
    if (source) samplers.push(new GroupSampler(pgid, source));
  });
  const root = join(ctx.config.dataDir, 'executions', String(row.id));
  const workDir = join(root, 'work');
  const outDir = join(root, 'out');
  // One round at a time: `ps` may take longer than the interval on a loaded machine.
  let sampling = false;
  let ended = false;
  const sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void Promise.all(
      samplers.map(async (s) => {
        const { cpu_percent, memory_gb, pids } = await s.sample();
        if (pids > 0 && !ended) rec.sampled(cpu_percent, memory_gb);
      }),
    )
      .catch((err: unknown) => ctx.log(`execution ${row.id}: sampling failed: ${(err as Error).message}`))
      .finally(() => (sampling = false));
  }, sampleIntervalMs());
  let failed = false;
  try {
    rec.status('running');
    const found = deps.catalogue.version(row.version_id);
    if (!found)
      throw new EngineError(`Pipeline version ${row.pipeline_name} ${row.version_label} is no longer in the catalogue`);
    const version = found.version.manifest;
    const { workflowPath, workflowChecksum } = found.version;
    if (workflowPath && workflowChecksum) {
      const tampered = copyProblem(
        workflowCopyDir(ctx.config.dataDir, row.version_id),
        workflowChecksum,
        `${row.pipeline_name} ${row.version_label}`,
      );
      if (tampered) throw new EngineError(tampered);
    }
    await recordProvenance(ctx, row.id, version, workflowChecksum);
    // A resumed run continues in the folder its failed attempt kept; any other run starts clean.
    const resume = row.resumes > 0 && existsSync(workDir);
    if (!resume) rmSync(root, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    mkdirSync(outDir, { recursive: true });
    const parameters = JSON.parse(row.parameters) as Record<string, unknown>;
    rec.log(
      'laneway',
      'INFO',
      `Running ${row.pipeline_name} ${row.version_label} with ${resources.cpus} CPU(s)${row.test_mode ? ` in test mode (${TEST_MODE_READS} reads per input)` : ''}`,
    );
    const samples = jobSamples(ctx, row);
    if (version.processes !== null)
      rec.expect(version.processes === 'per_sample' ? Math.max(1, samples.length) : version.processes);
    // Reference index builds belong to the run: its cancel, time limit and resource sampling.
    const files = await prepareFileInputs(ctx, parameters, version, workDir, (m) => rec.log('laneway', 'INFO', m), {
      signal,
      spawned: (pgid) => rec.spawned(pgid),
    });
    await engineFor(version, workflowPath).run(
      {
        executionId: row.id,
        parameters,
        samples,
        files,
        outDir,
        workDir,
        cpus: resources.cpus,
        ...(row.test_mode ? { maxReads: TEST_MODE_READS } : {}),
        ...(resources.memoryGb ? { memoryGb: resources.memoryGb } : {}),
        ...(resources.queue ? { queue: resources.queue } : {}),
        ...(resources.timeLimitSeconds ? { timeLimitSeconds: resources.timeLimitSeconds } : {}),
        serviceUrl: deps.serviceUrl(),
        callbackSecret: row.callback_secret,
        weblogReceivers: ctx.parts.weblogReceivers,
        ...(resume ? { resume: true } : {}),
        condaPrefix: join(ctx.config.dataDir, 'conda'),
        signal,
      },
      rec,
    );
    if (signal.aborted) throw signal.reason;
    if (version.multiqc)
      await multiqcReport(
        outDir,
        `${row.name} (${row.pipeline_name} ${row.version_label})`,
        rec,
        signal,
        samples.map((s) => s.name),
      );
    if (signal.aborted) throw signal.reason;
    for (const o of rec.outputs) {
      createDataRecord(ctx, {
        sourceFile: join(outDir, o.path),
        filename: basename(o.path),
        dataType: o.dataType,
        owner: { owner_user_id: row.owner_user_id, owner_group_id: row.owner_group_id },
        source: 'execution',
        executionId: row.id,
        path: o.path,
        ...(o.sampleId !== undefined ? { sampleId: o.sampleId } : {}),
      });
    }
    rec.log('laneway', 'INFO', `Completed with ${rec.outputs.length} output file(s)`);
    rec.status('completed');
  } catch (err) {
    const stop = signal.aborted && signal.reason instanceof StopReason ? signal.reason : null;
    const full = !stop && (isStorageFull(err) || diskNearlyFull(ctx.config.dataDir));
    let message =
      stop?.message ?? (err instanceof EngineError ? err.message : `The execution failed: ${(err as Error).message}`);
    if (full) message = `The service's disk is full (no space left on device): ${message}`;
    if (!(err instanceof EngineError) && !stop && !full) {
      ctx.log(`execution ${row.id}: ${(err as Error).stack ?? String(err)}`);
    }
    failed = (stop?.status ?? 'failed') === 'failed';
    // Partial outputs of a run that ran out of space are useless and hold the space it needs
    // to record its end: they go (other failed runs keep their folder for diagnosis).
    if (full) {
      rmSync(root, { recursive: true, force: true });
      failed = false;
    }
    writeWhenSpace(ctx, `execution ${row.id}`, () => {
      rec.log('laneway', 'ERROR', message);
      rec.status(stop?.status ?? 'failed', message);
    });
  } finally {
    ended = true;
    clearInterval(sampler);
    // Work folders of failed runs stay for diagnosis; everything else is already stored.
    if (!failed) rmSync(root, { recursive: true, force: true });
  }
}
