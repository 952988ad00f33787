/**
 * Generates multiplexed lanes for tests and benchmarks: N reads with inline barcodes and UMIs
 * (an Ultraplex layout such as NNNXXXXXXNN) or Illumina header indexes (single or dual), a
 * fraction with exactly one barcode mismatch, a fraction with no sample's barcode, gzip or
 * plain, single or paired; and the truth: the sample each read was meant for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AnnotationRow } from '../../src/shared/annotation/columns';
import { barcodeDistance, reverseComplement } from '../../src/shared/annotation/barcodes';
import { BufferedOut } from './buffered-out';
import { readPools } from './read-pools';
import { prng } from './prng';

export interface LaneSpec {
  dir: string;
  reads: number;
  samples: number;
  /** inline: barcodes at the 5' end; header: `1:N:0:ACGTACGT`; dual: `1:N:0:ACGT+TTGA`. */
  kind: 'inline' | 'header' | 'dual';
  /** Inline layout (N = UMI, X = barcode); default NNNXXXXXXNN. */
  layout?: string;
  /** Barcode length for header kinds (each part for dual); default 8. */
  barcodeLength?: number;
  readLength?: number;
  mismatchFraction?: number;
  undeterminedFraction?: number;
  paired?: boolean;
  gzip?: boolean;
  seed?: number;
  /** Also write a second read 1 with the leading UMI bases removed (for fastq-multx). */
  umiTrimmedCopy?: boolean;
}

export interface GeneratedLane {
  read1: string;
  read2?: string;
  /** `read name <TAB> sample name or Undetermined` per read. */
  truth: string;
  /** read 1 without the leading UMI (inline only, when asked). */
  read1UmiTrimmed?: string;
  barcodes: Array<{ name: string; barcode: string }>;
  rows: AnnotationRow[];
  layout: string | null;
}

// Re-exported: the generator's callers take their PRNG from here.
export { prng };

const BASES = 'ACGT';

/** Barcodes at least 3 apart and none the reverse complement of another (a clean sheet). */
export function makeBarcodes(count: number, length: number, rand: () => number, dual = false): string[] {
  const out: string[] = [];
  const randomSeq = (n: number) => Array.from({ length: n }, () => BASES[Math.floor(rand() * 4)]).join('');
  for (let tries = 0; out.length < count; tries++) {
    if (tries > 100_000) throw new Error('cannot find enough distant barcodes');
    const b = dual ? `${randomSeq(length)}+${randomSeq(length)}` : randomSeq(length);
    if (out.every((o) => barcodeDistance(o, b) >= 3 && reverseComplement(o) !== b)) out.push(b);
  }
  return out;
}

/** Writes a lane to spec.dir and returns its files, barcodes and sheet rows. */
export function generateLane(spec: LaneSpec): GeneratedLane {
  const rand = prng(spec.seed ?? 1);
  const readLength = spec.readLength ?? 150;
  const layout = spec.kind === 'inline' ? (spec.layout ?? 'NNNXXXXXXNN') : null;
  const bcLength = layout ? layout.replace(/N/g, '').length : (spec.barcodeLength ?? 8);
  const codes = makeBarcodes(spec.samples, bcLength, rand, spec.kind === 'dual');
  const barcodes = codes.map((barcode, i) => ({ name: `S${String(i + 1).padStart(2, '0')}`, barcode }));
  const ext = spec.gzip ? '.fastq.gz' : '.fastq';
  const read1 = join(spec.dir, `lane_R1${ext}`);
  const read2 = spec.paired ? join(spec.dir, `lane_R2${ext}`) : undefined;
  const truth = join(spec.dir, 'truth.tsv');
  const trimmedPath = spec.umiTrimmedCopy && layout ? join(spec.dir, `lane_R1_umi_trimmed${ext}`) : undefined;
  const o1 = new BufferedOut(read1, !!spec.gzip);
  const o2 = read2 ? new BufferedOut(read2, !!spec.gzip) : null;
  const ot = trimmedPath ? new BufferedOut(trimmedPath, !!spec.gzip) : null;
  const tr = new BufferedOut(truth, false);
  const { body, quality } = readPools(rand);
  const mismatchFraction = spec.mismatchFraction ?? 0.02;
  const undeterminedFraction = spec.undeterminedFraction ?? 0.01;
  const leadingUmi = layout ? layout.indexOf('X') : 0;
  for (let i = 0; i < spec.reads; i++) {
    const x = rand();
    let sample = Math.floor(rand() * barcodes.length);
    let code = barcodes[sample]!.barcode;
    if (x < undeterminedFraction) {
      // A barcode at least 2 from every sample's: no sample within one mismatch.
      do code = makeBarcodes(1, bcLength, rand, spec.kind === 'dual')[0]!;
      while (codes.some((c) => barcodeDistance(c, code) < 2));
      sample = -1;
    } else if (x < undeterminedFraction + mismatchFraction) {
      const positions = [...code].flatMap((c, k) => (c === '+' ? [] : [k]));
      const at = positions[Math.floor(rand() * positions.length)]!;
      const other = BASES.replace(code[at]!, '')[Math.floor(rand() * 3)]!;
      code = code.slice(0, at) + other + code.slice(at + 1);
    }
    const name = `gen.${i + 1}`;
    let seq1: string;
    let header1 = `@${name}`;
    let header2 = `@${name}`;
    if (layout) {
      let k = 0;
      const prefix = [...layout].map((c) => (c === 'X' ? code[k++] : BASES[Math.floor(rand() * 4)])).join('');
      seq1 = prefix + body(readLength - prefix.length);
      header1 += ' 1:N:0:1';
      header2 += ' 2:N:0:1';
    } else {
      seq1 = body(readLength);
      header1 += ` 1:N:0:${code}`;
      header2 += ` 2:N:0:${code}`;
    }
    const qual = quality(readLength);
    o1.add(`${header1}\n${seq1}\n+\n${qual}\n`);
    if (o2) o2.add(`${header2}\n${body(readLength)}\n+\n${quality(readLength)}\n`);
    if (ot) ot.add(`${header1}\n${seq1.slice(leadingUmi)}\n+\n${qual.slice(leadingUmi)}\n`);
    tr.add(`${name}\t${sample < 0 ? 'Undetermined' : barcodes[sample]!.name}\n`);
  }
  for (const o of [o1, o2, ot, tr]) o?.close();
  const rows: AnnotationRow[] = barcodes.map((b, i) => ({
    row: i + 2,
    values: { 'Sample Name': b.name, Barcode: b.barcode, Organism: 'Homo sapiens', Category: 'RNA' },
  }));
  return { read1, read2, truth, read1UmiTrimmed: trimmedPath, barcodes, rows, layout };
}

/**
 * Compares demultiplexed outputs with the generator's truth, read by read: every read must be
 * in the file of its intended sample (or Undetermined), exactly once.
 */
export function compareWithTruth(
  truthPath: string,
  outputs: Array<{ sample: string; path: string }>,
): { checked: number; disagreements: number; missing: number; examples: string[] } {
  const truthText = readFileSync(truthPath, 'latin1');
  const names: string[] = [];
  const sampleIds = new Map<string, number>();
  const expected: number[] = [];
  for (const line of truthText.split('\n')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const sample = line.slice(tab + 1);
    if (!sampleIds.has(sample)) sampleIds.set(sample, sampleIds.size);
    names.push(line.slice(0, tab));
    expected.push(sampleIds.get(sample)!);
  }
  const seen = new Int32Array(expected.length).fill(-1);
  let disagreements = 0;
  const examples: string[] = [];
  for (const out of outputs) {
    const raw = readFileSync(out.path);
    const data = out.path.endsWith('.gz') ? gunzipSync(raw) : raw;
    const id = sampleIds.get(out.sample) ?? -2;
    let pos = 0;
    let line = 0;
    while (pos < data.length) {
      let nl = data.indexOf(10, pos);
      if (nl < 0) nl = data.length;
      if (line % 4 === 0) {
        // @gen.<n>[_UMI][ comment]: the read number is the truth's line.
        let e = pos + 5;
        while (e < nl && data[e]! >= 48 && data[e]! <= 57) e++;
        const n = Number(data.toString('latin1', pos + 5, e)) - 1;
        if (seen[n] !== -1) {
          disagreements++;
          if (examples.length < 5) examples.push(`${names[n]} written twice`);
        }
        seen[n] = id;
        if (expected[n] !== id) {
          disagreements++;
          if (examples.length < 5) examples.push(`${names[n]} in ${out.sample}`);
        }
      }
      line++;
      pos = nl + 1;
    }
  }
  let missing = 0;
  for (const s of seen) if (s === -1) missing++;
  return { checked: expected.length, disagreements: disagreements + missing, missing, examples };
}
