/** Recognises an instrument run folder by the files its instrument writes first. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstrumentKind } from '../../../shared/desktop-api/contract';

/** The instrument kind of a run folder, or null when it does not look like one. */
export async function detectRunKind(dir: string): Promise<InstrumentKind | null> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const has = (n: string) => names.includes(n);
  if (has('RunInfo.xml')) return 'illumina';
  if (
    names.some((n) => /^final_summary_.*\.txt$/.test(n)) ||
    has('fastq_pass') ||
    names.some((n) => /^report_.*\.(json|html|md)$/.test(n))
  )
    return 'nanopore';
  if (has('RunUploaded.json') || (has('RunParameters.json') && (has('Samples') || has('RunManifest.json'))))
    return 'element';
  return null;
}

/** What a folder lacks when detectRunKind does not take it for a run of this instrument. */
export const NOT_A_RUN_REASON: Record<Exclude<InstrumentKind, 'generic'>, string> = {
  illumina: 'no RunInfo.xml, which an Illumina instrument writes as a run starts',
  nanopore: "none of MinKNOW's final_summary_*.txt, fastq_pass or report_* files",
  element: 'no RunUploaded.json, nor RunParameters.json beside Samples or RunManifest.json',
};

/**
 * How deep under a watched folder runs are looked for. MinKNOW writes each run at
 * `<data root>/<protocol_group_id>/<sample_id>/<start_time>_<device>_<flow_cell>_<id8>/`
 * (ONT output specification, minknow/output_structure), three levels under the data root a
 * GridION or PromethION lab watches; Illumina, Element and MGI write runs directly in their
 * output folder (one level). The watcher's entry bounds (watch-bounds.ts) still apply.
 */
export const RUN_SEARCH_DEPTH = 3;

/**
 * The run folders at `dir` (when `includeSelf`) or under it, at most `depth` levels down, in
 * name order. A run's own subfolders are never searched (a run holds no runs).
 */
export async function findRunFolders(dir: string, depth = RUN_SEARCH_DEPTH, includeSelf = false): Promise<string[]> {
  if (includeSelf && (await detectRunKind(dir))) return [dir];
  if (depth <= 0) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries
    .filter((x) => x.isDirectory() && !x.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : 1)))
    out.push(...(await findRunFolders(join(dir, e.name), depth - 1, true)));
  return out;
}
