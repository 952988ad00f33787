/**
 * A seeded single-end lane of Ultraplex's 5'+3' design, built field by field, with the barcode
 * sheet in both Ultraplex's CSV and Laneway's lane sheet. The design is Ultraplex's (Wilkins et
 * al. 2021, Genome Research 31:1220; github.com/ulelab/ultraplex, README "Barcode csv" and
 * tests/test_simple/generate_simple_PE_fastq.py):
 * - read 1 = 5' barcode (its `N` positions are a UMI, the rest the barcode: `NNBBBNN` in the test
 *   design), the insert, the 3' barcode (`NNBB`: the `N`s are a UMI, positions counted from the
 *   insert's 3' end), then the 3' adapter, truncated to the read length (100 in the test design),
 *   so the 3' barcode is read only when the insert is short, and then it is always followed by
 *   adapter bases;
 * - inserts of 0 to 299 bases (the test design's `"A" * i` for i < 300; here random bases, so the
 *   adapter search meets real sequence);
 * - each 5' barcode linked to its own 3' barcodes; Ultraplex's CSV is one line per 5' barcode,
 *   `5'barcode,3'barcode:name,3'barcode:name` (README "Adding sample names").
 * Added to the test design: reads with one mismatch in a barcode, reads whose 5' or 3' barcode is
 * no sample's, reads whose 3' barcode is cut off by the read's end, and (optionally) sequencing
 * errors in the adapter. Qualities are all `F` (Q37), or optionally the test generator's falling
 * ones: Ultraplex quality-trims the 3' end at Q30 before it looks for the adapter, Laneway's
 * demultiplexer does not trim by quality (docs/instruments.md, "Ultraplex").
 * Paired lanes (`paired`): read 2 is the same fragment from its other end, as the test generator
 * writes it (`read2 = rev_c(seq) + adapter2`, truncated to 100 bases): the reverse complement of
 * 5' barcode + insert + 3' barcode, then read 2's adapter (Ultraplex's `--adapter2` default
 * `AGATCGGAAGAGCGTCGTG`), so read 2 starts with the 3' barcode reverse-complemented, whatever the
 * insert's length. Ultraplex `-i2` reads it there.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { partDistance } from '../../src/shared/annotation/barcodes';
import { prng } from './fastq-generator';

/** Ultraplex's default adapter (its `--adapter`, Illumina p7). */
export const ULTRAPLEX_DEFAULT_ADAPTER = 'AGATCGGAAGAGCACACGTCTGAA';
/** Ultraplex's default read-2 adapter (its `--adapter2`), also its test generator's `adapter2`. */
export const ULTRAPLEX_DEFAULT_ADAPTER2 = 'AGATCGGAAGAGCGTCGTG';

export interface UltraplexLaneSpec {
  dir: string;
  seed: number;
  reads: number;
  /** 5' layout, `N` = UMI, `X` = barcode base (the test design's `NNXXXNN`). */
  fiveLayout: string;
  /** 3' layout in read 1's orientation, aligned at the insert's end (the test design's `NNXX`). */
  threeLayout: string;
  fivePrime: number;
  threePerFive: number;
  /**
   * One set of 3' barcodes linked to every 5' barcode, as in Ultraplex's test sheet
   * (tests/test_simple/barcodes_5_and_3.csv); otherwise each 5' barcode has its own.
   */
  sameThreeForEveryFive?: boolean;
  adapter?: string;
  insert?: [number, number];
  readLength?: number;
  /** Share of reads with one mismatch in the 5' or the 3' barcode. */
  mismatchFraction?: number;
  /** Share of reads whose 5' or 3' barcode is no sample's. */
  noMatchFraction?: number;
  /**
   * Share of reads with one sequencing error in the adapter's first 12 bases: a substitution, an
   * inserted or a deleted base, a third each (cutadapt's alignment, in Ultraplex, allows indels).
   */
  adapterErrorFraction?: number;
  /**
   * Qualities as Ultraplex's test generator writes them (`quality_string(l, chance=6)`: from Q45
   * down by one with chance 1/7 per base), instead of all Q37.
   */
  fallingQualities?: boolean;
  /** The kinds of adapter error drawn (default all three). */
  adapterErrorKinds?: Array<'substitution' | 'insertion' | 'deletion'>;
  /** Write read 2 too (the fragment's other end; see above). */
  paired?: boolean;
}

export interface UltraplexLane {
  /** read 1, gzip (Ultraplex reads only gzip input). */
  read1: string;
  /** read 2, gzip, for a paired lane. */
  read2: string | null;
  /** Ultraplex's barcode CSV, samples named. */
  ultraplexCsv: string;
  /** Laneway's lane sheet (`5'barcode...3'barcode` cells). */
  sheet: string;
  samples: Array<{ name: string; five: string; three: string }>;
  /** Per read id, the sample the reads were built for, or `Undetermined`. */
  truth: Map<string, string>;
  /** Per read id, its insert (the fragment between the barcodes), what the trimmed reads should hold. */
  inserts: Map<string, string>;
}

const BASES = 'ACGT';

export function generateUltraplexLane(spec: UltraplexLaneSpec): UltraplexLane {
  const rand = prng(spec.seed);
  const base = () => BASES[Math.floor(rand() * 4)]!;
  const bases = (n: number) => Array.from({ length: n }, base).join('');
  const adapter = spec.adapter ?? ULTRAPLEX_DEFAULT_ADAPTER;
  const [lo, hi] = spec.insert ?? [0, 299];
  const readLength = spec.readLength ?? 100;
  const x5 = spec.fiveLayout.replace(/N/g, '').length;
  const x3 = spec.threeLayout.replace(/N/g, '').length;
  // Barcodes at least 3 apart (2-base ones 2 apart), so that one mismatch never brings a read to
  // another sample.
  const pick = (count: number, n: number, layout: string, fromEnd: boolean, taken: string[] = []): string[] => {
    const out: string[] = [];
    for (let tries = 0; out.length < count; tries++) {
      if (tries > 100_000) throw new Error('cannot find enough distant barcodes');
      const b = bases(n);
      if (
        [...taken, ...out].every(
          (o) => partDistance({ bases: o, layout }, { bases: b, layout }, fromEnd) >= Math.min(3, n),
        )
      ) {
        out.push(b);
      }
    }
    return out;
  };
  const fives = pick(spec.fivePrime, x5, spec.fiveLayout, false);
  const shared = spec.sameThreeForEveryFive ? pick(spec.threePerFive, x3, spec.threeLayout, true) : null;
  const threes = fives.map(() => shared ?? pick(spec.threePerFive, x3, spec.threeLayout, true));
  const cell = (layout: string, b: string) => {
    let k = 0;
    return layout.replace(/X/g, () => b[k++]!);
  };
  const render = (layout: string, b: string) => {
    let k = 0;
    return layout.replace(/[NX]/g, (c) => (c === 'X' ? b[k++]! : base()));
  };
  const samples = fives.flatMap((f, a) =>
    threes[a]!.map((t, b) => ({
      name: `S${String(a * spec.threePerFive + b + 1).padStart(2, '0')}`,
      five: cell(spec.fiveLayout, f),
      three: cell(spec.threeLayout, t),
    })),
  );
  const mutate = (b: string) => {
    const at = Math.floor(rand() * b.length);
    return b.slice(0, at) + BASES.replace(b[at]!, '')[Math.floor(rand() * 3)]! + b.slice(at + 1);
  };
  // A barcode at least 2 from every given one: no sample's, even with one mismatch allowed.
  const stranger = (given: string[], layout: string, fromEnd: boolean) => {
    for (;;) {
      const b = bases(given[0]!.length);
      if (given.every((o) => partDistance({ bases: o, layout }, { bases: b, layout }, fromEnd) >= 2)) return b;
    }
  };
  const mismatchFraction = spec.mismatchFraction ?? 0.05;
  const noMatchFraction = spec.noMatchFraction ?? 0.05;
  const adapterErrorFraction = spec.adapterErrorFraction ?? 0;
  const truth = new Map<string, string>();
  const inserts = new Map<string, string>();
  const chunks: string[] = [];
  const chunks2: string[] = [];
  const complement: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
  const revComp = (t: string) =>
    [...t]
      .reverse()
      .map((c) => complement[c] ?? 'N')
      .join('');
  for (let i = 0; i < spec.reads; i++) {
    const a = Math.floor(rand() * fives.length);
    const b = Math.floor(rand() * spec.threePerFive);
    let five = fives[a]!;
    let three = threes[a]![b]!;
    let sample = samples[a * spec.threePerFive + b]!.name;
    const x = rand();
    if (x < noMatchFraction) {
      if (rand() < 0.5) five = stranger(fives, spec.fiveLayout, false);
      else three = stranger(threes[a]!, spec.threeLayout, true);
      sample = 'Undetermined';
    } else if (x < noMatchFraction + mismatchFraction) {
      if (rand() < 0.5) five = mutate(five);
      else three = mutate(three);
    }
    const insert = bases(lo + Math.floor(rand() * (hi - lo + 1)));
    const head = render(spec.fiveLayout, five) + insert + render(spec.threeLayout, three);
    let tail = adapter;
    if (adapterErrorFraction > 0 && rand() < adapterErrorFraction) {
      const at = Math.floor(rand() * Math.min(12, adapter.length));
      const kinds = spec.adapterErrorKinds ?? ['substitution', 'insertion', 'deletion'];
      const kind = ['substitution', 'insertion', 'deletion'].indexOf(kinds[Math.floor(rand() * kinds.length)]!);
      const sub = kind === 0 ? BASES.replace(adapter[at]!, '')[Math.floor(rand() * 3)]! : kind === 1 ? base() : '';
      tail = adapter.slice(0, at) + sub + adapter.slice(kind === 1 ? at : at + 1);
    }
    const seq = (head + tail + bases(readLength)).slice(0, readLength);
    // The 3' barcode, or the 3 adapter bases that show where it ends, cut off by the read's end.
    if (head.length + 3 > readLength && !spec.paired) sample = 'Undetermined';
    const id = `up.${i + 1}`;
    truth.set(id, sample);
    inserts.set(id, insert);
    let qual = 'F'.repeat(seq.length);
    if (spec.fallingQualities) {
      qual = '';
      for (let q = 45; qual.length < seq.length;) {
        qual += String.fromCharCode(33 + q);
        if (Math.floor(rand() * 7) === 0 && q > 2) q--;
      }
    }
    chunks.push(`@${id} 1:N:0:1\n${seq}\n+\n${qual}\n`);
    if (spec.paired) {
      const seq2 = (revComp(head) + ULTRAPLEX_DEFAULT_ADAPTER2 + bases(readLength)).slice(0, readLength);
      chunks2.push(`@${id} 2:N:0:1\n${seq2}\n+\n${'F'.repeat(seq2.length)}\n`);
    }
  }
  const read1 = join(spec.dir, 'iclip_R1.fastq.gz');
  writeFileSync(read1, gzipSync(chunks.join('')));
  const read2 = spec.paired ? join(spec.dir, 'iclip_R2.fastq.gz') : null;
  if (read2) writeFileSync(read2, gzipSync(chunks2.join('')));
  const ultraplexCsv = join(spec.dir, 'barcodes.csv');
  writeFileSync(
    ultraplexCsv,
    fives
      .map((_, a) => {
        const own = samples.slice(a * spec.threePerFive, (a + 1) * spec.threePerFive);
        return [own[0]!.five, ...own.map((s) => `${s.three}:${s.name}`)].join(',');
      })
      .join('\n') + '\n',
  );
  const sheet = join(spec.dir, 'sheet.csv');
  writeFileSync(
    sheet,
    `Sample Name,Barcode,Organism,Category\n${samples.map((s) => `${s.name},${s.five}...${s.three},Homo sapiens,RNA`).join('\n')}\n`,
  );
  return { read1, read2, ultraplexCsv, sheet, samples, truth, inserts };
}
