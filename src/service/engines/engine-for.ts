/** Picks the engine that runs a pipeline version, from its manifest's engine spec. */
import type { ManifestVersion } from '../pipelines/manifest';
import { builtinEngine } from './builtin-engine';
import type { Engine } from './engine';
import { nextflowEngine } from './nextflow/nextflow-engine';
import { snakemakeEngine } from './snakemake/snakemake-engine';

/** The engine for one version; `workflowPath` is the version's own copy of its workflow. */
export function engineFor(version: ManifestVersion, workflowPath: string | null = null): Engine {
  const e = version.engine;
  switch (e.kind) {
    case 'builtin':
    case 'node':
      return builtinEngine(e);
    case 'snakemake':
      return snakemakeEngine(workflowPath ?? e.workflow, { conda: version.conda });
    case 'nextflow':
      return nextflowEngine(workflowPath ? { ...e, workflow: workflowPath } : e);
  }
}

/** True when the service is configured to send this engine's work to a cluster executor. */
export function isClusterRun(version: ManifestVersion, env: NodeJS.ProcessEnv = process.env): boolean {
  if (version.engine.kind === 'snakemake')
    return !!(env.LANEWAY_SNAKEMAKE_PROFILE || env.LANEWAY_SNAKEMAKE_ARGS || env.LANEWAY_SNAKEMAKE_EXECUTOR);
  if (version.engine.kind === 'nextflow') return !!(env.LANEWAY_NEXTFLOW_PROFILE || env.LANEWAY_NEXTFLOW_EXECUTOR);
  return false;
}
