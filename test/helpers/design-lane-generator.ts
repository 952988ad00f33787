/**
 * Generates lanes of every barcode design the demultiplexer reads, with the truth per read:
 * - inline 5' barcodes of mixed lengths with UMIs before and after (`NNN<6-8 bases>NN`),
 * - inline 3' barcodes (`<bases>NNNN` at the read's end),
 * - combinatorial 5'+3' pairs (some pairs are no sample: those reads are Undetermined),
 * - dual indexes in the read header or as I1/I2 index-read files, with index hopping (i7 of
 *   one sample with i5 of another: Undetermined), a single index as an I1 file,
 * on read 1 or read 2 of a paired lane; a fraction of reads has one mismatch in one barcode, a
 * fraction has barcodes of no sample. Barcodes keep at least 3 apart where their layouts overlap.
 */
import { join } from 'node:path';
import type { AnnotationRow } from '../../src/shared/annotation/columns';
import { partDistance, reverseComplement } from '../../src/shared/annotation/barcodes';
import { BufferedOut } from './buffered-out';
import { readPools } from './read-pools';
import { prng } from './fastq-generator';

export type DesignKind =
  | 'mixed5'
  | 'inline3'
  | 'combinatorial'
  | 'dual-header'
  | 'dual-index-reads'
  | 'single-header'
  | 'single-index-reads'
  | 'gbs';

export interface DesignLaneSpec {
  dir: string;
  kind: DesignKind;
  reads: number;
  samples: number;
  readLength?: number;
  mismatchFraction?: number;
  undeterminedFraction?: number;
  /** dual kinds: reads with i7 of one sample and i5 of another. */
  hoppingFraction?: number;
  paired?: boolean;
  /** Inline barcodes on read 2 instead of read 1 (paired only). */
  barcodeRead?: 1 | 2;
  gzip?: boolean;
  seed?: number;
  /** Write the sheet's i5 reverse-complemented (the reads keep the true orientation). */
  sheetI5ReverseComplemented?: boolean;
  /**
   * inline3 and combinatorial: the read is a short insert, the 3' barcode, then this adapter (then
   * random bases), as in iCLIP and Ultraplex's design, instead of the 3' barcode at the read's end.
   */
  adapter?: string;
  /** With `adapter`: insert lengths, [min, max]; the 3' barcode is read only when it fits. */
  insert?: [number, number];
  /**
   * Index-read kinds: the read headers carry the index bases too, as BCL Convert writes them
   * beside I1/I2 files (`1:N:0:ACGTACGT+TTGGCCAA`), instead of bcl2fastq's sample number.
   */
  indexInHeader?: boolean;
  /**
   * Read names as long as an instrument's (`@gen.12:8:H3VJ7DSXY:1:1101:10004:10019`, after the
   * `instrument:run:flowcell:lane:tile:x:y` fields of Illumina's FASTQ headers), still numbered
   * `gen.N` for the truth; default the short `@gen.N`.
   */
  longNames?: boolean;
}

export interface DesignLane {
  read1: string;
  read2?: string;
  index1?: string;
  index2?: string;
  truth: string;
  rows: AnnotationRow[];
  /** Per sample: name and the sheet's Barcode cell. */
  samples: Array<{ name: string; cell: string }>;
}

const BASES = 'ACGT';

interface Part {
  bases: string;
  layout: string;
}

/** `count` parts with the given layouts (cycled), at least 3 apart where they overlap. */
function makeParts(count: number, layouts: string[], rand: () => number, fromEnd: boolean, minD = 3): Part[] {
  const out: Part[] = [];
  for (let tries = 0; out.length < count; tries++) {
    if (tries > 200_000) throw new Error('cannot find enough distant barcodes');
    const layout = layouts[out.length % layouts.length]!;
    const n = layout.replace(/N/g, '').length;
    const bases = Array.from({ length: n }, () => BASES[Math.floor(rand() * 4)]).join('');
    const p = { bases, layout };
    if (out.every((o) => partDistance(o, p, fromEnd) >= minD && reverseComplement(o.bases) !== bases)) out.push(p);
  }
  return out;
}

/** The read's bases for a part: UMI positions random, barcode positions from `bases`. */
function render(layout: string, bases: string, rand: () => number): string {
  let k = 0;
  let s = '';
  for (const c of layout) s += c === 'X' ? bases[k++] : BASES[Math.floor(rand() * 4)];
  return s;
}

function mutate(bases: string, rand: () => number): string {
  const at = Math.floor(rand() * bases.length);
  const other = BASES.replace(bases[at]!, '')[Math.floor(rand() * 3)]!;
  return bases.slice(0, at) + other + bases.slice(at + 1);
}

/** Writes a lane of the given design to spec.dir. */
export function generateDesignLane(spec: DesignLaneSpec): DesignLane {
  const rand = prng(spec.seed ?? 7);
  const readLength = spec.readLength ?? 100;
  const ext = spec.gzip ? '.fastq.gz' : '.fastq';
  const paired = !!spec.paired || spec.barcodeRead === 2;
  const barcodeRead = spec.barcodeRead ?? 1;
  const kind = spec.kind;
  const dual = kind === 'dual-header' || kind === 'dual-index-reads';
  // Segments: the distinct parts per segment and each sample's parts.
  let seg0: Part[];
  let seg1: Part[] | null = null;
  let samplesParts: Array<[number, number]>;
  if (kind === 'gbs') {
    // GBS (Elshire et al. 2011, PLoS ONE 6:e19379; axe's use case): bare barcodes of 9 to 13 bases at
    // the read's first base, then the restriction site's remnant; the header's index field is empty.
    seg0 = makeParts(
      spec.samples,
      ['XXXXXXXXXXXXX', 'XXXXXXXXXXXX', 'XXXXXXXXXXX', 'XXXXXXXXXX', 'XXXXXXXXX'],
      rand,
      false,
    );
    samplesParts = seg0.map((_, i) => [i, -1]);
  } else if (kind === 'mixed5') {
    seg0 = makeParts(spec.samples, ['NNNXXXXXXNN', 'NNNXXXXXXXNN', 'NNNXXXXXXXXNN'], rand, false);
    samplesParts = seg0.map((_, i) => [i, -1]);
  } else if (kind === 'inline3') {
    seg0 = makeParts(spec.samples, ['XXXXXXXNNNN'], rand, true);
    samplesParts = seg0.map((_, i) => [i, -1]);
  } else if (kind === 'single-header') {
    seg0 = makeParts(spec.samples, ['XXXXXXXX'], rand, false, 5);
    samplesParts = seg0.map((_, i) => [i, -1]);
  } else if (kind === 'single-index-reads') {
    seg0 = makeParts(spec.samples, ['XXXXXXXX'], rand, false);
    samplesParts = seg0.map((_, i) => [i, -1]);
  } else if (kind === 'combinatorial') {
    // Ultraplex's design: each 5' barcode with several 3' barcodes; one pair per 5' barcode is no sample.
    const n5 = Math.max(2, Math.ceil(Math.sqrt(spec.samples)));
    const n3 = Math.ceil(spec.samples / n5) + 1;
    seg0 = makeParts(n5, ['NNNXXXXXXNN'], rand, false);
    seg1 = makeParts(n3, ['XXXXXXNNNN'], rand, true);
    samplesParts = [];
    for (let a = 0; a < n5 && samplesParts.length < spec.samples; a++) {
      for (let b = 0; b < n3 && samplesParts.length < spec.samples; b++) if (b !== a % n3) samplesParts.push([a, b]);
    }
  } else {
    seg0 = makeParts(spec.samples, ['XXXXXXXX'], rand, false);
    seg1 = makeParts(spec.samples, ['XXXXXXXX'], rand, false);
    samplesParts = seg0.map((_, i) => [i, i]);
  }
  const names = samplesParts.map((_, i) => `S${String(i + 1).padStart(2, '0')}`);
  const sampleOfPair = new Map(samplesParts.map(([a, b], i) => [`${a},${b}`, i]));
  const read1 = join(spec.dir, `lane_R1${ext}`);
  const read2 = paired ? join(spec.dir, `lane_R2${ext}`) : undefined;
  const indexReads = kind === 'dual-index-reads' || kind === 'single-index-reads';
  const index1 = indexReads ? join(spec.dir, `lane_I1${ext}`) : undefined;
  const index2 = kind === 'dual-index-reads' ? join(spec.dir, `lane_I2${ext}`) : undefined;
  const truth = join(spec.dir, 'truth.tsv');
  const outs = [read1, read2, index1, index2].map((p) => (p ? new BufferedOut(p, !!spec.gzip) : null));
  const tr = new BufferedOut(truth, false);
  const { body, quality: qual } = readPools(rand);
  const mismatchFraction = spec.mismatchFraction ?? 0.02;
  const undeterminedFraction = spec.undeterminedFraction ?? 0.01;
  const hoppingFraction = spec.hoppingFraction ?? 0;
  // Two mismatches are tolerated on single-header lanes (barcodes 5 apart): keep unknowns 5 away.
  const minRandom = kind === 'single-header' ? 5 : 3;
  const twoMismatches = kind === 'single-header';
  const randomPart = (parts: Part[], fromEnd: boolean): Part => {
    const layout = parts[Math.floor(rand() * parts.length)]!.layout;
    for (;;) {
      const p = { bases: body(layout.replace(/N/g, '').length), layout };
      if (parts.every((q) => partDistance(q, p, fromEnd) >= minRandom)) return p;
    }
  };
  for (let i = 0; i < spec.reads; i++) {
    const x = rand();
    let sample = Math.floor(rand() * samplesParts.length);
    const [a, b] = samplesParts[sample]!;
    let p0: Part = { ...seg0[a]! };
    let p1: Part | null = seg1 ? { ...seg1[b]! } : null;
    if (x < undeterminedFraction) {
      // A barcode 3 or more from every sample's in one segment: no sample within one mismatch.
      if (p1 && rand() < 0.5) p1 = randomPart(seg1!, kind === 'combinatorial');
      else p0 = randomPart(seg0, kind === 'inline3');
      sample = -1;
    } else if (x < undeterminedFraction + hoppingFraction && p1) {
      const other = (b + 1 + Math.floor(rand() * (seg1!.length - 1))) % seg1!.length;
      p1 = { ...seg1![other]! };
      sample = sampleOfPair.get(`${a},${other}`) ?? -1;
    } else if (x < undeterminedFraction + hoppingFraction + mismatchFraction) {
      if (p1 && rand() < 0.5) p1 = { ...p1, bases: mutate(p1.bases, rand) };
      else p0 = { ...p0, bases: mutate(p0.bases, rand) };
      if (twoMismatches) p0 = { ...p0, bases: mutate(p0.bases, rand) };
    }
    // Tile, x and y from the read number alone, so that the random stream stays the same.
    const name = spec.longNames
      ? `gen.${i + 1}:8:H3VJ7DSXY:1:${1101 + (i % 78)}:${10000 + ((i * 7919) % 22000)}:${1000 + ((i * 104729) % 37000)}`
      : `gen.${i + 1}`;
    let seqB = body(readLength);
    let h1 = `@${name} 1:N:0:1`;
    let h2 = `@${name} 2:N:0:1`;
    let i1: string | null = null;
    let i2: string | null = null;
    const threeEnd = kind === 'combinatorial' ? p1! : p0;
    if (kind === 'gbs') {
      // ApeKI's remnant after the barcode (CWGC, W = A or T), as GBS reads start.
      seqB = p0.bases + (rand() < 0.5 ? 'CAGC' : 'CTGC') + body(readLength - p0.bases.length - 4);
      h1 = `@${name} 1:N:0:`;
      h2 = `@${name} 2:N:0:`;
    } else if (kind === 'mixed5') seqB = render(p0.layout, p0.bases, rand) + body(readLength - p0.layout.length);
    else if (spec.adapter && (kind === 'inline3' || kind === 'combinatorial')) {
      // A short insert: [5' barcode] insert, 3' barcode, adapter, then whatever the sequencer read on.
      const [lo, hi] = spec.insert ?? [10, readLength];
      const five = kind === 'combinatorial' ? render(p0.layout, p0.bases, rand) : '';
      const insert = body(lo + Math.floor(rand() * (hi - lo + 1)));
      const full = five + insert + render(threeEnd.layout, threeEnd.bases, rand) + spec.adapter + body(readLength);
      seqB = full.slice(0, readLength);
      // The 3' barcode cut off by the read's end: no sample can be told.
      if (five.length + insert.length + threeEnd.layout.length > readLength) sample = -1;
    } else if (kind === 'inline3') seqB = body(readLength - p0.layout.length) + render(p0.layout, p0.bases, rand);
    else if (kind === 'combinatorial') {
      seqB =
        render(p0.layout, p0.bases, rand) +
        body(readLength - p0.layout.length - p1!.layout.length) +
        render(p1!.layout, p1!.bases, rand);
    } else if (kind === 'single-header') {
      h1 = `@${name} 1:N:0:${p0.bases}`;
      h2 = `@${name} 2:N:0:${p0.bases}`;
    } else if (kind === 'dual-header') {
      h1 = `@${name} 1:N:0:${p0.bases}+${p1!.bases}`;
      h2 = `@${name} 2:N:0:${p0.bases}+${p1!.bases}`;
    } else {
      // bcl2fastq's sample-number header (the indexes are only in I1/I2), or BCL Convert's
      // header with the index bases (https://support.illumina.com/help/BaseSpace_Sequence_Hub_OLH_009008_2/Source/Informatics/BS/FileFormat_FASTQ-files_swBS.htm).
      i1 = p0.bases;
      i2 = p1 ? p1.bases : null;
      if (spec.indexInHeader) {
        const field = i2 === null ? i1 : `${i1}+${i2}`;
        h1 = `@${name} 1:N:0:${field}`;
        h2 = `@${name} 2:N:0:${field}`;
      }
    }
    const other = body(readLength);
    const [seq1, seq2] = barcodeRead === 2 ? [other, seqB] : [seqB, other];
    outs[0]!.add(`${h1}\n${seq1}\n+\n${qual(seq1.length)}\n`);
    outs[1]?.add(`${h2}\n${seq2}\n+\n${qual(seq2.length)}\n`);
    if (i1 !== null) outs[2]!.add(`@${name} 1:N:0:1\n${i1}\n+\n${qual(i1.length)}\n`);
    if (i2 !== null) outs[3]!.add(`@${name} 1:N:0:1\n${i2}\n+\n${qual(i2.length)}\n`);
    tr.add(`${name}\t${sample < 0 ? 'Undetermined' : names[sample]}\n`);
  }
  for (const o of [...outs, tr]) o?.close();
  const cellOf = ([a, b]: [number, number]): string => {
    const full = (p: Part) =>
      render(p.layout, p.bases, () => 0).replace(/./g, (c, k) => (p.layout[k] === 'N' ? 'N' : c));
    if (kind === 'mixed5') return full(seg0[a]!);
    if (kind === 'gbs') return seg0[a]!.bases;
    if (kind === 'inline3') return `...${full(seg0[a]!)}`;
    if (kind === 'combinatorial') return `${full(seg0[a]!)}...${full(seg1![b]!)}`;
    if (kind === 'single-header' || kind === 'single-index-reads') return seg0[a]!.bases;
    const i5 = seg1![b]!.bases;
    return `${seg0[a]!.bases}+${spec.sheetI5ReverseComplemented ? reverseComplement(i5) : i5}`;
  };
  const samples = samplesParts.map((p, i) => ({ name: names[i]!, cell: cellOf(p) }));
  const rows: AnnotationRow[] = samples.map((s, i) => ({
    row: i + 2,
    values: { 'Sample Name': s.name, Barcode: s.cell, Organism: 'Homo sapiens', Category: 'RNA' },
  }));
  void dual;
  return { read1, read2, index1, index2, truth, rows, samples };
}

/** The sheet as CSV text. */
export function designSheetCsv(lane: DesignLane): string {
  return `Sample Name,Barcode,Organism,Category\n${lane.samples.map((s) => `${s.name},${s.cell},Homo sapiens,RNA`).join('\n')}\n`;
}
