/**
 * Where a sample comes from, carried onto it as metadata (issue 19 item 8): the run id, the
 * instrument (its id and family), the flow cell, the lanes joined, the index, Sample_Project,
 * and Organism / Category when the sample sheet has the lab's own columns for them. A watched
 * folder's metadata fills only what the sheet leaves empty.
 */
import type { RunReport } from '../../../shared/desktop-api/contract';
import type { SheetSample } from '../runs/sample-sheet';
import type { IlluminaRunInfo } from './illumina-run';

type ManifestSample = NonNullable<RunReport['manifest']>[number];

/** The run-level fields: from RunInfo.xml for Illumina, the folder's name otherwise. */
export function runProvenance(info: IlluminaRunInfo | null, runName: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  const runId = info?.runId ?? runName;
  if (runId) out.run_id = runId;
  if (info?.instrument) out.instrument = info.family ? `${info.instrument} (${info.family})` : info.instrument;
  if (info?.flowcell) out.flowcell = info.flowcell;
  return out;
}

/** The sample-level fields from the sample sheet entry or Element's manifest. */
export function sampleProvenance(
  entry: SheetSample | null,
  manifest: ManifestSample | null,
  lanes: readonly number[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const index = entry?.index
    ? [entry.index, entry.index2].filter(Boolean).join('+')
    : manifest?.index1
      ? [manifest.index1, manifest.index2].filter(Boolean).join('+')
      : null;
  if (index) out.index = index;
  const joined = lanes.length ? lanes : (manifest?.lanes ?? []);
  if (joined.length) out.lanes = joined.join('+');
  const project = entry?.project ?? manifest?.project;
  if (project) out.sample_project = project;
  if (entry?.organism) out.organism = entry.organism;
  if (entry?.category) out.category = entry.category;
  return out;
}
