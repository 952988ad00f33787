/**
 * Conda for workflows whose rules name conda environments (`"conda": true` in the manifest):
 * which front end this machine has, looked up once. Snakemake 7 defaults to mamba, so the one
 * found is passed explicitly (`--conda-frontend`). Where neither is installed (this build
 * machine: Debian packages neither), the rules run with the tools on PATH and the run's log
 * says so.
 */
import { onPath } from '../tool-check';

export type CondaFrontend = 'mamba' | 'conda';

/** mamba when installed, else conda, else null. */
export function detectCondaFrontend(path = process.env.PATH ?? ''): CondaFrontend | null {
  if (onPath('mamba', path)) return 'mamba';
  if (onPath('conda', path)) return 'conda';
  return null;
}

let cached: CondaFrontend | null | undefined;

/** The front end, detected on the service's PATH at first use. */
export function condaFrontend(): CondaFrontend | null {
  if (cached === undefined) cached = detectCondaFrontend();
  return cached;
}

/** Snakemake's arguments for a workflow with conda environments, given the front end found. */
export function condaArgs(frontend: CondaFrontend | null, prefix: string | undefined): string[] {
  if (!frontend) return [];
  return ['--use-conda', '--conda-frontend', frontend, ...(prefix ? ['--conda-prefix', prefix] : [])];
}
