/**
 * A sample's QC as fastp's JSON report, so that MultiQC's fastp module (and anything else that
 * reads fastp's JSON) picks Laneway's QC up: the subset of fastp 0.23's layout that MultiQC
 * 1.14 parses (multiqc/modules/fastp/fastp.py): `command` (its `-i` names the sample),
 * `summary`, `filtering_result`, `duplication.rate` and per read `quality_curves.mean` and
 * `content_curves`. Counts are the ones fastp itself reports (qc-fastp-equality.test.ts).
 *
 * Laneway's QC filters nothing, so the "after filtering" figures equal the "before" ones and
 * every read passes, as fastp reports with its filters off (`-A -Q -L -G`). Per-base quality
 * curves (fastp's A/C/G/T lines) and the k-mer table are not computed and left out; the
 * duplication rate is our sampled estimate (FastQC's method), not fastp's.
 *
 * `adapter_cutting` is there so that MultiQC's general statistics show "% Adapter"
 * (`adapter_trimmed_reads` / total reads): the reads in which a known adapter was found, which
 * are the reads fastp would trim; the bases are those from the adapter's start to the read's
 * end (of the longest read, exact for reads of one length). Nothing is cut.
 */
import type { QcResult } from './qc-result';

interface FastpRead {
  total_reads: number;
  total_bases: number;
  q20_bases: number;
  q30_bases: number;
  total_cycles: number;
  quality_curves: { mean: number[] };
  content_curves: { A: number[]; T: number[]; C: number[]; G: number[]; N: number[]; GC: number[] };
}

export interface FastpJson {
  summary: {
    sequencing: string;
    before_filtering: Record<string, number>;
    after_filtering: Record<string, number>;
  };
  filtering_result: Record<string, number>;
  duplication: { rate: number };
  adapter_cutting: {
    adapter_trimmed_reads: number;
    adapter_trimmed_bases: number;
    read1_adapter_sequence: string;
    read2_adapter_sequence?: string;
  };
  read1_before_filtering: FastpRead;
  read1_after_filtering: FastpRead;
  read2_before_filtering?: FastpRead;
  read2_after_filtering?: FastpRead;
  command: string;
  laneway: { generator: string; sample: string; files: string[] };
}

const round = (x: number, digits = 4) => Number(x.toFixed(digits));

function readSection(r: QcResult): FastpRead {
  const c = r.per_position_content;
  return {
    total_reads: r.summary.total_reads,
    total_bases: r.summary.total_bases,
    q20_bases: r.summary.q20_bases,
    q30_bases: r.summary.q30_bases,
    total_cycles: r.summary.max_length,
    quality_curves: { mean: r.per_position_quality.map((p) => round(p.mean)) },
    content_curves: {
      A: c.map((p) => round(p.a / 100)),
      T: c.map((p) => round(p.t / 100)),
      C: c.map((p) => round(p.c / 100)),
      G: c.map((p) => round(p.g / 100)),
      N: c.map((p) => round(p.n / 100)),
      GC: c.map((p) => round((p.g + p.c) / 100)),
    },
  };
}

/** Reads with a known adapter, the bases from its start on, and the most frequent adapter's probe. */
function adapterFound(r: QcResult): { reads: number; bases: number; sequence: string } {
  const a = r.adapter_content;
  const n = r.summary.total_reads;
  let reads = 0;
  let bases = 0;
  let previous = a.adapters.map(() => 0);
  for (const p of a.positions) {
    p.percent.forEach((pct, k) => {
      const starts = Math.round(((pct - previous[k]!) * n) / 100);
      reads += starts;
      bases += starts * (r.summary.max_length - p.position + 1);
    });
    previous = p.percent;
  }
  let best = -1;
  a.totals.forEach((t, k) => {
    if (t > 0 && (best < 0 || t > a.totals[best]!)) best = k;
  });
  // A read with two different adapters counts once at most, as one trimmed read.
  return { reads: Math.min(reads, n), bases, sequence: best >= 0 ? a.adapters[best]!.probe : 'unspecified' };
}

function summary(reads: QcResult[]): Record<string, number> {
  const sum = (f: (r: QcResult) => number) => reads.reduce((a, r) => a + f(r), 0);
  const bases = sum((r) => r.summary.total_bases);
  const out: Record<string, number> = {
    total_reads: sum((r) => r.summary.total_reads),
    total_bases: bases,
    q20_bases: sum((r) => r.summary.q20_bases),
    q30_bases: sum((r) => r.summary.q30_bases),
    q20_rate: bases ? round(sum((r) => r.summary.q20_bases) / bases, 6) : 0,
    q30_rate: bases ? round(sum((r) => r.summary.q30_bases) / bases, 6) : 0,
    read1_mean_length: Math.round(reads[0]!.summary.mean_length),
    gc_content: bases ? round(sum((r) => r.summary.gc_bases) / bases, 6) : 0,
  };
  if (reads[1]) out.read2_mean_length = Math.round(reads[1].summary.mean_length);
  return out;
}

function adapterCutting(r1: QcResult, r2: QcResult | undefined): FastpJson['adapter_cutting'] {
  const a1 = adapterFound(r1);
  const a2 = r2 ? adapterFound(r2) : null;
  return {
    adapter_trimmed_reads: a1.reads + (a2?.reads ?? 0),
    adapter_trimmed_bases: a1.bases + (a2?.bases ?? 0),
    read1_adapter_sequence: a1.sequence,
    ...(a2 ? { read2_adapter_sequence: a2.sequence } : {}),
  };
}

/**
 * The fastp-layout JSON of one sample (read 1 and, when paired, read 2). `sampleKey` becomes
 * the sample's name in MultiQC (its `-i` argument); it must not contain white space.
 */
export function fastpJson(sampleKey: string, sample: string, reads: QcResult[]): FastpJson {
  if (reads.length === 0 || reads.length > 2) throw new Error('fastpJson takes one or two reads');
  if (/\s/.test(sampleKey)) throw new Error(`sample key with white space: ${sampleKey}`);
  const [r1, r2] = reads as [QcResult, QcResult | undefined];
  const totals = summary(reads);
  const sequencing = r2
    ? `paired end (${r1.summary.max_length} cycles + ${r2.summary.max_length} cycles)`
    : `single end (${r1.summary.max_length} cycles)`;
  const sampled = reads.reduce((a, r) => a + r.duplication.sampled_reads, 0);
  const duplicates = reads.reduce((a, r) => a + r.duplication.duplicate_rate * r.duplication.sampled_reads, 0);
  return {
    summary: {
      sequencing,
      before_filtering: totals,
      after_filtering: totals,
    },
    filtering_result: {
      passed_filter_reads: totals.total_reads!,
      low_quality_reads: 0,
      too_many_N_reads: 0,
      too_short_reads: 0,
      too_long_reads: 0,
    },
    duplication: { rate: sampled ? round(duplicates / sampled, 6) : 0 },
    adapter_cutting: adapterCutting(r1, r2),
    read1_before_filtering: readSection(r1),
    read1_after_filtering: readSection(r1),
    ...(r2 ? { read2_before_filtering: readSection(r2), read2_after_filtering: readSection(r2) } : {}),
    command: `laneway-qc -i ${sampleKey}${r2 ? ` -I ${sampleKey}_R2` : ''}`,
    laneway: { generator: 'Laneway QC', sample, files: reads.map((r) => r.file) },
  };
}
