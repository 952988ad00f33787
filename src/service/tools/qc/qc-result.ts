/**
 * The quality-control result (the `qc_json` output): summary counts named as in fastp's JSON so
 * that they can be compared field by field, and per-cycle and per-read distributions derived
 * from the raw counters.
 */
import { KNOWN_ADAPTERS } from './known-adapters';
import { qcFlags, type QcFlag } from './qc-flags';
import { BASE_SLOTS, QUAL_SLOTS, type QcCounts } from './qc-counts';
import { summariseSample, type DuplicationResult, type OverrepresentedSequence } from './sequence-sample';

import type { QualityEncoding } from './quality-encoding';

export interface CycleQuality {
  position: number;
  mean: number;
  /**
   * FastQC's lower quartile and median (QualityCount.getPercentile), which its verdict uses; null
   * where 100 reads or fewer reach the position (FastQC shows NaN there and judges nothing).
   */
  fastqc_q1: number | null;
  fastqc_median: number | null;
  p10: number;
  q1: number;
  median: number;
  q3: number;
  p90: number;
}

export interface QcResult {
  /** The input's file name as its owner knows it (the upload's name, not the stored sha256). */
  file: string;
  /** The sample the file belongs to, when QC ran as a pipeline on samples. */
  sample?: string;
  compressed: boolean;
  /** True when the run stopped after `max_reads` reads (test mode). */
  truncated: boolean;
  summary: {
    total_reads: number;
    total_bases: number;
    q20_bases: number;
    q30_bases: number;
    q20_rate: number;
    q30_rate: number;
    gc_bases: number;
    gc_content: number;
    n_bases: number;
    /** The quality encoding found from the lowest quality character (FastQC's rule), and the offset used. */
    encoding: string;
    quality_offset: number;
    min_length: number;
    max_length: number;
    mean_length: number;
  };
  length_distribution: Array<{ length: number; count: number }>;
  per_position_quality: CycleQuality[];
  per_sequence_quality: Array<{ quality: number; count: number }>;
  /** Reads by GC percent, index = percent. */
  gc_distribution: number[];
  /** Percent of A, C, G, T and N at each cycle. */
  per_position_content: Array<{ position: number; a: number; c: number; g: number; t: number; n: number }>;
  adapter_content: {
    adapters: Array<{ name: string; probe: string }>;
    /** Cumulative percent of reads with each adapter starting at or before the position. */
    positions: Array<{ position: number; percent: number[] }>;
    /** The highest cumulative percent per adapter (at the last cycle). */
    totals: number[];
  };
  duplication: DuplicationResult;
  overrepresented_sequences: OverrepresentedSequence[];
  /** Pass/warn/fail per module with FastQC's default limits (qc-flags.ts). */
  flags: QcFlag[];
}

function quantile(hist: Float64Array, offset: number, total: number, q: number, phred: number): number {
  const rank = q * (total - 1);
  let seen = 0;
  for (let v = 0; v < QUAL_SLOTS; v++) {
    seen += hist[offset + v]!;
    if (seen > rank) return v - phred;
  }
  return 0;
}

/** FastQC's percentile: the first quality whose running count reaches floor(n x p / 100). */
function fastqcPercentile(
  hist: Float64Array,
  offset: number,
  total: number,
  percent: number,
  phred: number,
): number | null {
  if (total <= 100) return null;
  const target = Math.floor((total * percent) / 100);
  let seen = 0;
  for (let v = phred; v < QUAL_SLOTS; v++) {
    seen += hist[offset + v]!;
    if (seen >= target) return v - phred;
  }
  return 0;
}

/** `phred` is the quality offset of the file (33, or 64 for a Phred+64 file read as such). */
function cycleQuality(c: QcCounts, phred: number): CycleQuality[] {
  const out: CycleQuality[] = [];
  for (let i = 0; i < c.maxLen; i++) {
    const off = i * QUAL_SLOTS;
    let n = 0;
    let sum = 0;
    for (let v = 0; v < QUAL_SLOTS; v++) {
      n += c.qualHist[off + v]!;
      sum += c.qualHist[off + v]! * (v - phred);
    }
    if (n === 0) continue;
    const at = (q: number) => quantile(c.qualHist, off, n, q, phred);
    out.push({
      position: i + 1,
      mean: sum / n,
      fastqc_q1: fastqcPercentile(c.qualHist, off, n, 25, phred),
      fastqc_median: fastqcPercentile(c.qualHist, off, n, 50, phred),
      p10: at(0.1),
      q1: at(0.25),
      median: at(0.5),
      q3: at(0.75),
      p90: at(0.9),
    });
  }
  return out;
}

function cycleContent(c: QcCounts): QcResult['per_position_content'] {
  const out: QcResult['per_position_content'] = [];
  for (let i = 0; i < c.maxLen; i++) {
    const at = (b: string) => c.baseCounts[i * BASE_SLOTS + (b.charCodeAt(0) & 7)]!;
    let n = 0;
    for (let k = 0; k < BASE_SLOTS; k++) n += c.baseCounts[i * BASE_SLOTS + k]!;
    if (n === 0) continue;
    const pct = (x: number) => (100 * x) / n;
    out.push({ position: i + 1, a: pct(at('A')), c: pct(at('C')), g: pct(at('G')), t: pct(at('T')), n: pct(at('N')) });
  }
  return out;
}

function adapterContent(c: QcCounts): QcResult['adapter_content'] {
  const running = new Array<number>(KNOWN_ADAPTERS.length).fill(0);
  const positions: QcResult['adapter_content']['positions'] = [];
  for (let i = 0; i < c.maxLen; i++) {
    for (let a = 0; a < KNOWN_ADAPTERS.length; a++) running[a]! += c.adapterStarts[a * c.cap + i]!;
    positions.push({ position: i + 1, percent: running.map((x) => (c.reads ? (100 * x) / c.reads : 0)) });
  }
  return {
    adapters: KNOWN_ADAPTERS.map((a) => ({ name: a.name, probe: a.probe })),
    positions,
    totals: running.map((x) => (c.reads ? (100 * x) / c.reads : 0)),
  };
}

/** Builds the result document from merged counters and the sequence sample in file order. */
export function buildResult(
  c: QcCounts,
  sample: Parameters<typeof summariseSample>[0],
  meta: { file: string; sample?: string; compressed: boolean; truncated: boolean },
  encoding: QualityEncoding | null = null,
): QcResult {
  // The quality offset of this file (33, or 64 for a Phred+64 file read as such).
  const phred = encoding?.offset ?? 33;
  // fastp's Q20/Q30 counts assume Phred+33; a Phred+64 file's are counted again from the histogram.
  let q20 = c.q20;
  let q30 = c.q30;
  if (phred !== 33) {
    q20 = q30 = 0;
    for (let i = 0; i < c.qualHist.length; i++) {
      const v = i % QUAL_SLOTS;
      if (v >= phred + 20) q20 += c.qualHist[i]!;
      if (v >= phred + 30) q30 += c.qualHist[i]!;
    }
  }
  let nBases = 0;
  for (let i = 0; i < c.maxLen; i++) nBases += c.baseCounts[i * BASE_SLOTS + ('N'.charCodeAt(0) & 7)]!;
  const length_distribution: QcResult['length_distribution'] = [];
  for (let l = 0; l <= c.maxLen; l++)
    if (c.lengthHist[l]) length_distribution.push({ length: l, count: c.lengthHist[l]! });
  const per_sequence_quality: QcResult['per_sequence_quality'] = [];
  c.readQualHist.forEach((count, v) => count && per_sequence_quality.push({ quality: v - phred, count }));
  const { duplication, overrepresented } = summariseSample(sample);
  const rate = (x: number) => (c.bases ? x / c.bases : 0);
  const result: Omit<QcResult, 'flags'> = {
    ...meta,
    summary: {
      total_reads: c.reads,
      total_bases: c.bases,
      q20_bases: q20,
      q30_bases: q30,
      q20_rate: rate(q20),
      q30_rate: rate(q30),
      gc_bases: c.gc,
      gc_content: rate(c.gc),
      n_bases: nBases,
      encoding: encoding?.name ?? 'Sanger / Illumina 1.9',
      quality_offset: phred,
      min_length: c.reads ? c.minLen : 0,
      max_length: c.maxLen,
      mean_length: c.reads ? c.bases / c.reads : 0,
    },
    length_distribution,
    per_position_quality: cycleQuality(c, phred),
    per_sequence_quality,
    gc_distribution: Array.from(c.gcHist),
    per_position_content: cycleContent(c),
    adapter_content: adapterContent(c),
    duplication,
    overrepresented_sequences: overrepresented,
  };
  return { ...result, flags: qcFlags(result, Array.from(c.gcModelHist)) };
}
