/**
 * Outputs of workflow engines: every file a run leaves in its output folder becomes a data
 * record, typed by its extension and tied to the sample whose name starts the file name.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { EngineSample, EngineSink } from './engine';

const TYPES: Array<[RegExp, string]> = [
  [/\.(fastq|fq)(\.gz)?$/i, 'fastq'],
  [/\.bam$/i, 'bam'],
  [/\.bai$/i, 'bai'],
  [/\.csi$/i, 'csi'],
  [/\.tbi$/i, 'tbi'],
  [/\.cram$/i, 'cram'],
  [/\.sam$/i, 'sam'],
  [/\.vcf(\.gz)?$/i, 'vcf'],
  [/\.flagstat(\.txt)?$/i, 'flagstat'],
  [/\.html?$/i, 'html'],
  [/\.json$/i, 'json'],
  [/\.(tsv|csv)$/i, 'table'],
  [/\.txt$/i, 'text'],
];

/** A data type for a file name: fastq, bam, bai, vcf, flagstat, html, json... */
export function dataTypeOf(file: string): string {
  return TYPES.find(([re]) => re.test(file))?.[1] ?? 'file';
}

/** A sample name made safe for file names, as workflows use it. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Reports every file under outDir as an output of the run. */
export function registerOutputFiles(outDir: string, samples: EngineSample[], sink: EngineSink): void {
  let files: string[];
  try {
    files = walk(outDir).sort();
  } catch {
    return;
  }
  const keys = samples.map((s) => ({ id: s.id, key: safeName(s.name) })).sort((a, b) => b.key.length - a.key.length);
  for (const file of files) {
    if (statSync(file).size === 0 && !/\.(txt|tsv|csv)$/.test(file)) continue;
    const rel = relative(outDir, file);
    const base = rel.split('/').pop()!;
    const sample = keys.find((k) => base.startsWith(`${k.key}.`) || base.startsWith(`${k.key}_`));
    sink.output(rel, dataTypeOf(base), sample?.id);
  }
}
