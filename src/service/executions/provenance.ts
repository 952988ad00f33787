/**
 * What an execution ran with, recorded when it starts: the checksum of its version's workflow
 * copy and the versions of the engine and tools it uses (`samtools 1.16.1`, `7.21.0`...).
 */
import type { ServiceContext } from '../context';
import type { ManifestVersion } from '../pipelines/manifest';
import { setProvenance } from './executions.store';
import { toolVersions } from './tool-versions';

/** The programs whose versions matter for a version: its engine's, then its tools. */
export function provenancePrograms(version: ManifestVersion): string[] {
  const engine =
    version.engine.kind === 'snakemake' ? ['snakemake'] : version.engine.kind === 'nextflow' ? ['nextflow'] : [];
  return [...engine, ...version.tools];
}

/** Stores the workflow checksum and tool versions on the execution row. */
export async function recordProvenance(
  ctx: ServiceContext,
  executionId: number,
  version: ManifestVersion,
  workflowChecksum: string | null,
): Promise<void> {
  const versions = await toolVersions(provenancePrograms(version));
  setProvenance(ctx.db, executionId, workflowChecksum, JSON.stringify(versions));
}
