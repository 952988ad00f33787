/**
 * Element AVITI run manifests as AVITI OS writes them into the run folder
 * (docs.elembio.io/docs/run-manifest/prepare-manifest): RunManifest.csv has bracketed sections,
 * each a header row then rows; `[Samples]` has SampleName, Index1, Index2 and the optional
 * Lane and Project columns (headings case-insensitive; blank lines and `#` lines skipped).
 * RunManifest.json carries the same samples as `Samples: [{SampleName, Indexes: [{Lane, Index1,
 * Index2}], Project?}]`. A sample on several lanes is one sample with several lanes.
 */
import type { RunReport } from '../../../shared/desktop-api/contract';
import { csvRecords } from './csv-table';

export type ManifestSample = NonNullable<RunReport['manifest']>[number];

function merge(samples: Map<string, ManifestSample>, s: ManifestSample): void {
  const known = samples.get(s.name);
  if (!known) samples.set(s.name, s);
  else
    for (const lane of s.lanes)
      if (!known.lanes.includes(lane)) known.lanes = [...known.lanes, lane].sort((a, b) => a - b);
}

/** The samples of RunManifest.csv. */
export function readRunManifestCsv(text: string): ManifestSample[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => !l.trimStart().startsWith('#'));
  const start = lines.findIndex((l) => /^\s*"?\[samples\]/i.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^\s*"?\[[^\]]+\]/.test(l));
  const [head, ...rows] = csvRecords(lines.slice(start + 1, end < 0 ? undefined : end).join('\n'));
  if (!head) return [];
  const col = (name: string) => head.findIndex((h) => h.trim().toLowerCase() === name);
  const [name, i1, i2, lane, project] = ['samplename', 'index1', 'index2', 'lane', 'project'].map(col);
  if (name === undefined || name < 0) return [];
  const samples = new Map<string, ManifestSample>();
  for (const r of rows) {
    const value = (i: number | undefined) => (i !== undefined && i >= 0 ? (r[i] ?? '').trim() : '');
    if (!value(name)) continue;
    // A row without Lane applies to every lane; the lanes list then stays empty.
    const lanes = value(lane)
      ? value(lane)
          .split(/[+;\s]+/)
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0)
      : [];
    merge(samples, {
      name: value(name),
      index1: value(i1) || null,
      index2: value(i2) || null,
      lanes,
      project: value(project) || null,
    });
  }
  return [...samples.values()];
}

/** The samples of RunManifest.json. */
export function readRunManifestJson(text: string): ManifestSample[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const list = (doc as { Samples?: unknown }).Samples;
  if (!Array.isArray(list)) return [];
  const samples = new Map<string, ManifestSample>();
  for (const item of list as Array<Record<string, unknown>>) {
    const name = typeof item.SampleName === 'string' ? item.SampleName.trim() : '';
    if (!name) continue;
    const indexes = Array.isArray(item.Indexes) ? (item.Indexes as Array<Record<string, unknown>>) : [];
    const first = indexes[0] ?? {};
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    merge(samples, {
      name,
      index1: text(first.Index1),
      index2: text(first.Index2),
      lanes: indexes
        .map((x) => Number(x.Lane))
        .filter((n) => Number.isInteger(n) && n > 0)
        .sort((a, b) => a - b),
      project: text(item.Project),
    });
  }
  return [...samples.values()];
}
