/**
 * Runs Debian's axe-demultiplexer (axe-demux, Murray & Borevitz 2018, the GBS demultiplexer) on a
 * single-end lane with inline 5' barcodes and reads back its per-sample counts from its table.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads per sample as axe counts them (1 mismatch, its default), and its "No Barcode" reads. */
export function axeCounts(
  read1: string,
  samples: ReadonlyArray<{ name: string; cell: string }>,
  dir: string,
): { counts: Record<string, number>; undetermined: number } {
  mkdirSync(dir, { recursive: true });
  const barcodes = join(dir, 'barcodes.tsv');
  // axe's standard barcode file: barcode, tab, sample id (its --help).
  writeFileSync(barcodes, samples.map((s) => `${s.cell}\t${s.name}`).join('\n') + '\n');
  const table = join(dir, 'table.tsv');
  execFileSync('axe-demux', ['-q', '-m', '1', '-b', barcodes, '-f', read1, '-F', join(dir, 'axe'), '-t', table]);
  const counts: Record<string, number> = {};
  let undetermined = 0;
  for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
    const [, sample, count] = line.split('\t');
    if (!sample || count === undefined) continue;
    if (sample === 'No Barcode') undetermined = Number(count);
    else counts[sample] = Number(count);
  }
  return { counts, undetermined };
}
