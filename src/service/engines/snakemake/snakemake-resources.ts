/**
 * A run's resources as Snakemake resources, so that every job of the workflow asks the cluster
 * for them: `slurm_partition` and `queue` (the run's queue), `cpus_per_task`, `mem_mb` and
 * `runtime` (minutes) — the names Snakemake's SLURM support reads — given as
 * `--default-resources` (a rule's own resources still win). With LANEWAY_SNAKEMAKE_EXECUTOR=slurm
 * Laneway submits to SLURM itself: `--cluster sbatch ...` on Snakemake 7, `--executor slurm`
 * (the snakemake-executor-plugin-slurm) on 8 and later.
 */
import { join } from 'node:path';
import { isQueueName } from '../run-resources';
import type { SnakemakeVersion } from './snakemake-version';

export interface SnakemakeRunResources {
  cpus: number;
  memoryGb?: number;
  queue?: string;
  timeLimitSeconds?: number;
}

/** `--default-resources` values (Python literals, as Snakemake parses them). */
export function defaultResources(r: SnakemakeRunResources): string[] {
  const out = [`cpus_per_task=${r.cpus}`];
  if (r.memoryGb) out.push(`mem_mb=${Math.floor(r.memoryGb * 1024)}`);
  if (r.timeLimitSeconds) out.push(`runtime=${Math.max(1, Math.ceil(r.timeLimitSeconds / 60))}`);
  if (r.queue) {
    if (!isQueueName(r.queue)) throw new Error(`The queue name ${JSON.stringify(r.queue)} is not a partition name`);
    out.push(`queue='${r.queue}'`, `slurm_partition='${r.queue}'`);
  }
  return out;
}

/** The sbatch command line for Snakemake 7's generic `--cluster`, from the resources defined. */
export function sbatchCommand(r: SnakemakeRunResources, logDir: string, executionId: number): string {
  const parts = [
    'sbatch',
    '--parsable',
    `--job-name=laneway-${executionId}-{rule}`,
    '--cpus-per-task={resources.cpus_per_task}',
  ];
  if (r.queue) parts.push('--partition={resources.slurm_partition}');
  if (r.memoryGb) parts.push('--mem={resources.mem_mb}');
  if (r.timeLimitSeconds) parts.push('--time={resources.runtime}');
  parts.push(`--output=${join(logDir, 'slurm-%j.out')}`);
  return parts.join(' ');
}

/** Arguments that send the jobs to SLURM when LANEWAY_SNAKEMAKE_EXECUTOR=slurm. */
export function executorArgs(
  env: NodeJS.ProcessEnv,
  version: SnakemakeVersion,
  r: SnakemakeRunResources,
  logDir: string,
  executionId: number,
): string[] {
  if (env.LANEWAY_SNAKEMAKE_EXECUTOR !== 'slurm') return [];
  const jobs = ['--jobs', env.LANEWAY_SNAKEMAKE_JOBS ?? '100'];
  if (version.major >= 8) return ['--executor', 'slurm', ...jobs];
  return ['--cluster', sbatchCommand(r, logDir, executionId), ...jobs];
}
