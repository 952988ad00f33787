/**
 * Launches a watched folder's pipeline on the samples of a registered run, exactly once even
 * across a crash: the run is journalled `launching` before the request; a run found
 * `launching` later is first looked up on the service (an execution with the run's launch
 * name on its first sample), so a request that succeeded just before the crash is never
 * repeated. The run then moves to `launched` with the execution's id.
 */
import type { WatcherLaunch } from '../../../shared/desktop-api/contract';
import type { ServiceClient } from '../service-client/service-client';
import { ServiceError } from '../../../shared/service-client/service-error';
import type { JobStore } from '../uploads/job-store';
import type { RunRow, RunStore } from '../runs/run-store';
import { getExecutions, getPipelines, postPipelinesVersionsByIdRun } from '../../../shared/service-api/endpoints';

export interface RunLauncherOptions {
  runs: RunStore;
  jobs: JobStore;
  /** The signed-in service client; null while signed out (the launch waits). */
  client: () => ServiceClient | null;
  /** Called when a run moved (launched, or its launch failed). */
  changed: (run: RunRow) => void;
  log?: (msg: string) => void;
}

/** The execution name that identifies a run's launch on the service. */
export function launchName(run: Pick<RunRow, 'id' | 'name'>): string {
  return `${run.name} (Laneway run ${run.id})`.slice(0, 200);
}

/** The pipeline version id a launch names: a version id as is, a pipeline name its latest version. */
export async function resolveVersion(client: ServiceClient, pipeline: string): Promise<number> {
  if (/^\d+$/.test(pipeline.trim())) return Number(pipeline.trim());
  const list = await client.call(getPipelines);
  const wanted = pipeline.trim().toLowerCase();
  const p = list.find((x) => x.name.toLowerCase() === wanted);
  if (!p) throw new Error(`No pipeline named "${pipeline}" on this service`);
  const v = p.versions.find((x) => x.is_latest) ?? p.versions.at(-1);
  if (!v) throw new Error(`Pipeline ${p.name} has no version`);
  return v.id;
}

export class RunLauncher {
  private readonly inFlight = new Set<number>();

  constructor(private readonly options: RunLauncherOptions) {}

  /** The run's sample ids on the service (lanes get theirs later, from demultiplexing). */
  sampleIds(run: RunRow): number[] {
    return (JSON.parse(run.group_ids) as number[])
      .map((id) => this.options.jobs.group(id))
      .filter((g) => g?.kind === 'sample' && g.created_id !== null)
      .map((g) => g!.created_id!);
  }

  /** Launches the pipeline on a registered run once; answers the run as it is afterwards. */
  async launch(runId: number, launch: WatcherLaunch): Promise<RunRow | null> {
    const { runs } = this.options;
    let run = runs.run(runId);
    if (!run || run.state !== 'registered' || run.launch_state === 'launched' || run.launch_state === 'failed')
      return run ?? null;
    const client = this.options.client();
    if (!client || this.inFlight.has(runId)) return run;
    this.inFlight.add(runId);
    try {
      const samples = this.sampleIds(run);
      if (!samples.length) return this.fail(run, 'the run created no samples to launch a pipeline on');
      if (run.launch_state === 'launching') {
        const existing = await this.lookUp(client, run, samples[0]!);
        if (existing !== null) return this.done(run, existing, launch);
      }
      run = runs.setLaunch(run.id, 'launching');
      const version = await resolveVersion(client, launch.pipeline);
      const execution = await client.call(postPipelinesVersionsByIdRun, {
        params: { id: version },
        body: { name: launchName(run), samples, parameters: launch.parameters },
      });
      return this.done(run, execution.id, launch);
    } catch (err) {
      const permanent =
        !(err instanceof ServiceError) ||
        (!err.retryable && err.status !== null && err.status !== 401 && err.status !== 403);
      if (permanent && run) return this.fail(run, (err as Error).message);
      // Stays `launching`: the next attempt looks the execution up first.
      this.options.log?.(`launch for run ${runId}: ${(err as Error).message}`);
      return runs.run(runId) ?? null;
    } finally {
      this.inFlight.delete(runId);
    }
  }

  private async lookUp(client: ServiceClient, run: RunRow, sample: number): Promise<number | null> {
    const name = launchName(run);
    for (let page = 1; page <= 100; page++) {
      const res = await client.call(getExecutions, { query: { sample, page, per_page: 100 } });
      const found = res.items.find((e) => e.name === name);
      if (found) return found.id;
      if (res.items.length < 100) return null;
    }
    return null;
  }

  private done(run: RunRow, executionId: number, launch: WatcherLaunch): RunRow {
    const next = this.options.runs.setState(run.id, 'launched', `${launch.pipeline}: execution ${executionId}`, {
      launch_state: 'launched',
      execution_id: executionId,
      error: null,
    });
    this.options.changed(next);
    return next;
  }

  private fail(run: RunRow, why: string): RunRow {
    // The run stays registered (its samples exist); the error says why nothing was launched.
    const next = this.options.runs.setLaunch(run.id, 'failed', `Pipeline not launched: ${why}`);
    this.options.changed(next);
    return next;
  }
}
