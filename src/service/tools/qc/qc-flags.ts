/**
 * Pass/warn/fail flags per QC module with FastQC's default thresholds (its
 * Configuration/limits.txt, as Debian's fastqc ships it in /etc/fastqc/Configuration/), so that
 * a facility used to FastQC's ticks and crosses reads ours the same way. Each flag says which
 * figure decided it. Modules FastQC has and we do not compute (per-tile quality, k-mer content,
 * which limits.txt ignores by default) are not flagged.
 */
import type { QcResult } from './qc-result';

export type QcFlagStatus = 'pass' | 'warn' | 'fail';

export interface QcFlag {
  /** A stable key (FastQC's module, in snake case). */
  module: string;
  /** The module's title as FastQC shows it. */
  title: string;
  status: QcFlagStatus;
  /** The figure that decided the status and the limits it was compared with. */
  detail: string;
}

/** FastQC's limits.txt defaults, FastQC's key names in the comments. */
export const FASTQC_LIMITS = {
  /** quality_base_lower: the lower quartile of any position below this. */
  baseLowerQuartile: { warn: 10, fail: 5 },
  /** quality_base_median: the median of any position below this. */
  baseMedian: { warn: 25, fail: 20 },
  /** quality_sequence: the most frequent mean read quality below this. */
  sequenceQualityMode: { warn: 27, fail: 20 },
  /** sequence: the largest A/T or G/C difference at any position above this (percent). */
  baseContentDifference: { warn: 10, fail: 20 },
  /** gc_sequence: the summed deviation from a fitted normal curve above this (percent of reads). */
  gcDeviation: { warn: 15, fail: 30 },
  /** n_content: N at any position above this (percent). */
  nContent: { warn: 5, fail: 20 },
  /** duplication: percent of reads remaining after deduplication below this. */
  duplicationRemaining: { warn: 70, fail: 50 },
  /** overrepresented: any one sequence above this (percent of reads). */
  overrepresented: { warn: 0.1, fail: 1 },
  /** adapter: reads with an adapter by any position above this (percent). */
  adapter: { warn: 5, fail: 10 },
} as const;

function below(value: number, limits: { warn: number; fail: number }): QcFlagStatus {
  return value < limits.fail ? 'fail' : value < limits.warn ? 'warn' : 'pass';
}

function above(value: number, limits: { warn: number; fail: number }): QcFlagStatus {
  return value > limits.fail ? 'fail' : value > limits.warn ? 'warn' : 'pass';
}

const fixed = (x: number, digits = 1) => x.toFixed(digits);

function perBaseQuality(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS;
  let minQ1 = Infinity;
  let minMedian = Infinity;
  for (const p of r.per_position_quality) {
    // FastQC's own percentiles: on small files they differ from the quartiles the report shows.
    if (p.fastqc_q1 !== null) minQ1 = Math.min(minQ1, p.fastqc_q1);
    if (p.fastqc_median !== null) minMedian = Math.min(minMedian, p.fastqc_median);
  }
  if (!Number.isFinite(minQ1) && r.per_position_quality.length > 0) {
    // As FastQC: 100 reads or fewer at every position give no percentiles, and nothing to judge.
    return {
      module: 'per_base_quality',
      title: 'Per base sequence quality',
      status: 'pass',
      detail: 'too few reads (100 or fewer at every position) for quartiles, as FastQC judges them',
    };
  }
  if (!Number.isFinite(minQ1)) minQ1 = minMedian = 0;
  const a = below(minQ1, L.baseLowerQuartile);
  const b = below(minMedian, L.baseMedian);
  const worst: QcFlagStatus = a === 'fail' || b === 'fail' ? 'fail' : a === 'warn' || b === 'warn' ? 'warn' : 'pass';
  return {
    module: 'per_base_quality',
    title: 'Per base sequence quality',
    status: worst,
    detail: `lowest lower quartile ${minQ1} (warn < ${L.baseLowerQuartile.warn}, fail < ${L.baseLowerQuartile.fail}); lowest median ${minMedian} (warn < ${L.baseMedian.warn}, fail < ${L.baseMedian.fail})`,
  };
}

function perSequenceQuality(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.sequenceQualityMode;
  let mode = 0;
  let most = -1;
  for (const q of r.per_sequence_quality) {
    if (q.count > most) {
      most = q.count;
      mode = q.quality;
    }
  }
  return {
    module: 'per_sequence_quality',
    title: 'Per sequence quality scores',
    // FastQC (PerSequenceQualityScores) fails a mode at the limit too: a mode of 20 fails.
    status: below(mode - 1, L),
    detail: `most frequent mean read quality ${mode} (warn at ${L.warn} or below, fail at ${L.fail} or below)`,
  };
}

function perBaseContent(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.baseContentDifference;
  let max = 0;
  let at = 0;
  for (const p of r.per_position_content) {
    // FastQC's percentages are of A, C, G and T only (N left out).
    const acgt = p.a + p.c + p.g + p.t;
    if (acgt <= 0) continue;
    const diff = (Math.max(Math.abs(p.a - p.t), Math.abs(p.g - p.c)) * 100) / acgt;
    if (diff > max) {
      max = diff;
      at = p.position;
    }
  }
  return {
    module: 'per_base_sequence_content',
    title: 'Per base sequence content',
    status: above(max, L),
    detail: `largest A/T or G/C difference ${fixed(max)}% at position ${at} (warn > ${L.warn}%, fail > ${L.fail}%)`,
  };
}

/**
 * FastQC's GC test: a normal curve centred on the distribution's mode (the mean of the bins
 * within 10% of the highest, unless that range runs off either end) with the data's spread
 * around it; the deviation is the summed absolute difference as a percent of all reads.
 */
export function gcDeviationPercent(distribution: number[]): number {
  let total = 0;
  let firstMode = 0;
  let modeCount = 0;
  distribution.forEach((n, i) => {
    total += n;
    if (n > modeCount) {
      modeCount = n;
      firstMode = i;
    }
  });
  if (total <= 1) return 0;
  const cutoff = modeCount - modeCount / 10;
  let sum = 0;
  let bins = 0;
  let offTop = true;
  for (let i = firstMode; i < distribution.length; i++) {
    if (distribution[i]! > cutoff) {
      sum += i;
      bins++;
    } else {
      offTop = false;
      break;
    }
  }
  let offBottom = true;
  for (let i = firstMode - 1; i >= 0; i--) {
    if (distribution[i]! > cutoff) {
      sum += i;
      bins++;
    } else {
      offBottom = false;
      break;
    }
  }
  const mode = offTop || offBottom ? firstMode : sum / bins;
  let variance = 0;
  distribution.forEach((n, i) => (variance += (i - mode) ** 2 * n));
  const sd = Math.sqrt(variance / (total - 1));
  let deviation = 0;
  distribution.forEach((n, i) => {
    const density = sd > 0 ? Math.exp(-((i - mode) ** 2) / (2 * sd * sd)) / Math.sqrt(2 * Math.PI * sd * sd) : 0;
    deviation += Math.abs(density * total - n);
  });
  return (deviation / total) * 100;
}

function perSequenceGc(gcModel: number[]): QcFlag {
  const L = FASTQC_LIMITS.gcDeviation;
  const deviation = gcDeviationPercent(gcModel);
  return {
    module: 'per_sequence_gc_content',
    title: 'Per sequence GC content',
    status: above(deviation, L),
    detail: `deviation from a normal distribution ${fixed(deviation)}% of reads (warn > ${L.warn}%, fail > ${L.fail}%)`,
  };
}

function nContent(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.nContent;
  const max = r.per_position_content.reduce((m, p) => Math.max(m, p.n), 0);
  return {
    module: 'per_base_n_content',
    title: 'Per base N content',
    status: above(max, L),
    detail: `highest N content at a position ${fixed(max, 2)}% (warn > ${L.warn}%, fail > ${L.fail}%)`,
  };
}

function lengthDistribution(r: QcResult): QcFlag {
  const s = r.summary;
  const status: QcFlagStatus = s.min_length === 0 ? 'fail' : s.min_length !== s.max_length ? 'warn' : 'pass';
  return {
    module: 'sequence_length_distribution',
    title: 'Sequence length distribution',
    status,
    detail:
      status === 'fail'
        ? 'some reads have length 0'
        : status === 'warn'
          ? `reads are not all the same length (${s.min_length}-${s.max_length})`
          : `all reads are ${s.max_length} bases`,
  };
}

function duplication(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.duplicationRemaining;
  const remaining = r.duplication.percent_remaining_if_deduplicated;
  return {
    module: 'sequence_duplication_levels',
    title: 'Sequence duplication levels',
    status: below(remaining, L),
    detail: `${fixed(remaining)}% of sampled reads would remain after deduplication (warn < ${L.warn}%, fail < ${L.fail}%)`,
  };
}

function overrepresented(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.overrepresented;
  const max = r.overrepresented_sequences.reduce((m, o) => Math.max(m, o.percent), 0);
  return {
    module: 'overrepresented_sequences',
    title: 'Overrepresented sequences',
    status: above(max, L),
    detail: `most frequent sequence ${fixed(max, 2)}% of sampled reads (warn > ${L.warn}%, fail > ${L.fail}%)`,
  };
}

function adapterContent(r: QcResult): QcFlag {
  const L = FASTQC_LIMITS.adapter;
  let max = 0;
  let name = '';
  r.adapter_content.totals.forEach((t, i) => {
    if (t > max) {
      max = t;
      name = r.adapter_content.adapters[i]?.name ?? '';
    }
  });
  return {
    module: 'adapter_content',
    title: 'Adapter content',
    status: above(max, L),
    detail: `${fixed(max, 2)}% of reads contain ${name || 'any known adapter'} (warn > ${L.warn}%, fail > ${L.fail}%)`,
  };
}

/** The flag of a file without reads; it comes first, so that it is the first thing one reads. */
export const NO_READS_MODULE = 'no_reads';

/**
 * The flags of a file with no reads. FastQC 0.11.9 (Debian's) passes an empty file with "Total
 * Sequences 0" and judges its modules on nothing; ours say there was nothing to judge, and one
 * flag, a warning, says why the figures are empty: a sample of a lane that no read matched is
 * normal in a demultiplexed run, but worth a look.
 */
function noReadsFlags(): QcFlag[] {
  const modules: Array<[string, string]> = [
    ['per_base_quality', 'Per base sequence quality'],
    ['per_sequence_quality', 'Per sequence quality scores'],
    ['per_base_sequence_content', 'Per base sequence content'],
    ['per_sequence_gc_content', 'Per sequence GC content'],
    ['per_base_n_content', 'Per base N content'],
    ['sequence_length_distribution', 'Sequence length distribution'],
    ['sequence_duplication_levels', 'Sequence duplication levels'],
    ['overrepresented_sequences', 'Overrepresented sequences'],
    ['adapter_content', 'Adapter content'],
  ];
  return [
    {
      module: NO_READS_MODULE,
      title: 'No reads',
      status: 'warn',
      detail:
        'the file has no reads (0 sequences): for a demultiplexed sample, no read of the lane matched its barcode',
    },
    ...modules.map(([module, title]) => ({ module, title, status: 'pass' as const, detail: 'no reads to judge' })),
  ];
}

/**
 * The flags of one result, in FastQC's module order. `gcModel` is the GC distribution smoothed
 * as FastQC's GC model does (gc-model.ts); the plain per-percent one is too jagged for its test.
 */
export function qcFlags(r: Omit<QcResult, 'flags'>, gcModel: number[]): QcFlag[] {
  const result = r as QcResult;
  if (result.summary.total_reads === 0) return noReadsFlags();
  return [
    perBaseQuality(result),
    perSequenceQuality(result),
    perBaseContent(result),
    perSequenceGc(gcModel),
    nContent(result),
    lengthDistribution(result),
    duplication(result),
    overrepresented(result),
    adapterContent(result),
  ];
}
