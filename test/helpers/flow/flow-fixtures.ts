/**
 * Reads and a lane sheet for the Flow-wire tests, built field by field.
 *
 * FASTQ records follow Illumina's layout ("FASTQ files explained", Illumina support:
 * `@<instrument>:<run>:<flowcell>:<lane>:<tile>:<x>:<y> <read>:<is filtered>:<control>:<index>`),
 * so read 1 and read 2 of a pair share the name before the space and a lane's index sits in the
 * comment, as bcl2fastq / BCL Convert write undemultiplexed reads. The lane sheet uses Flow's
 * columns that Laneway shares (Sample Name, Organism; FLOW-WIRE.md §4.2) with Laneway's Barcode
 * and Category, plus Flow's `File` column naming the reads files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../fastq-generator';

function bases(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += 'ACGT'[Math.floor(rand() * 4)];
  return s;
}

function record(name: string, comment: string, seq: string): string {
  return `@${name} ${comment}\n${seq}\n+\n${'F'.repeat(seq.length)}\n`;
}

/** A pair of reads files (R1, R2) of `reads` records; `seed` makes the content unique. */
export function writePair(dir: string, prefix: string, reads: number, seed: number): { r1: string; r2: string } {
  const rand = prng(seed);
  let a = '';
  let b = '';
  for (let i = 0; i < reads; i++) {
    const name = `M70001:${seed}:000000000-ABCDE:1:1101:${1000 + i}:${2000 + i}`;
    a += record(name, '1:N:0:1', bases(rand, 75));
    b += record(name, '2:N:0:1', bases(rand, 75));
  }
  const r1 = join(dir, `${prefix}_R1.fastq`);
  const r2 = join(dir, `${prefix}_R2.fastq`);
  writeFileSync(r1, a);
  writeFileSync(r2, b);
  return { r1, r2 };
}

/** One reads file of `reads` records. */
export function writeReads(dir: string, filename: string, reads: number, seed: number): string {
  const rand = prng(seed);
  let text = '';
  for (let i = 0; i < reads; i++) text += record(`M70001:${seed}:FC:1:1101:${i}:1`, '1:N:0:1', bases(rand, 100));
  const path = join(dir, filename);
  writeFileSync(path, text);
  return path;
}

export interface FlowLane {
  r1: string;
  r2: string;
  sheet: string;
  /** Reads per sample, as the sheet names them. */
  expected: Record<string, number>;
}

/**
 * A paired lane of three samples with Illumina header indexes. S02's barcode is the reverse
 * complement of S01's, which Laneway's lane rules flag as a warning (not an error): the sheet
 * is accepted with warnings.
 */
export function writeWarningLane(dir: string, lane = 'lane7', samplePrefix = 'S', seed = 99): FlowLane {
  const samples = [
    { name: `${samplePrefix}01`, barcode: 'ACGTTGCA', reads: 40 },
    { name: `${samplePrefix}02`, barcode: 'TGCAACGT', reads: 30 },
    { name: `${samplePrefix}03`, barcode: 'GTCAGTCA', reads: 20 },
  ];
  const rand = prng(seed);
  let a = '';
  let b = '';
  let n = 0;
  for (const s of samples) {
    for (let i = 0; i < s.reads; i++, n++) {
      const name = `M70001:${seed}:000000000-LANE1:1:1101:${3000 + n}:${4000 + n}`;
      a += record(name, `1:N:0:${s.barcode}`, bases(rand, 60));
      b += record(name, `2:N:0:${s.barcode}`, bases(rand, 60));
    }
  }
  const r1 = join(dir, `${lane}_R1.fastq`);
  const r2 = join(dir, `${lane}_R2.fastq`);
  writeFileSync(r1, a);
  writeFileSync(r2, b);
  const sheet = join(dir, `${lane}.csv`);
  const rows = samples.map((s) => [
    s.name,
    s.barcode,
    'Homo sapiens',
    'Total RNA',
    `${lane}_R1.fastq`,
    `${lane}_R2.fastq`,
  ]);
  writeFileSync(
    sheet,
    ['Sample Name,Barcode,Organism,Category,File,File 2', ...rows.map((r) => r.join(','))].join('\n') + '\n',
  );
  return { r1, r2, sheet, expected: Object.fromEntries(samples.map((s) => [s.name, s.reads])) };
}
