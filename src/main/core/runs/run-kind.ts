/** Recognises an instrument run folder by the files its instrument writes first. */
import { readdir } from 'node:fs/promises';
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
