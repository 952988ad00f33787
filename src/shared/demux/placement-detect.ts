/**
 * Where a lane's barcodes are, found from its first reads rather than guessed from the sheet:
 * each candidate placement (the read header's i7, or i7+i5 with either index in either
 * orientation; index reads; inline at the 5' end at each offset the layout's UMI positions
 * allow; at the 3' end, or right before the adapter; read 1 or read 2) is scored by the share
 * of the sampled reads it assigns to a sample, with the demultiplexer's own matching rule. The
 * best is chosen (the one the lane asked for wins ties), the runner-up is reported, and when even
 * the best leaves most reads undetermined the lane is refused with the likely cause.
 */
import { detectAdapter } from './adapter';
import { adapterBytes, threePrimeText } from './three-prime';
import { reverseComplement } from '../annotation/barcodes';
import { headerIndex } from '../read-names';
import { candidatePlacements, type Placement } from './placement-candidates';
import type { LaneSample, PlacementPlan } from './placement-plan';
import { sampleAssigner, type KeyTables } from './placement-score';

export type { Placement } from './placement-candidates';

/** Above this undetermined share the lane is refused unless the warnings are accepted. */
export const MOSTLY_UNDETERMINED = 0.5;
/** A placement that assigns this share, though less than half, is where the barcodes probably are. */
const PLAUSIBLE = 0.2;

export interface PlacementScore {
  id: string;
  description: string;
  assigned: number;
  /** Reads where the placement can be read (with an adapter: the reads that show it). */
  readable: number;
  fraction: number;
}

export interface PlacementDetection {
  sampled_reads: number;
  /** True when the lane named where its barcodes are (then that placement is used, and checked). */
  given: boolean;
  chosen: PlacementScore;
  runner_up: PlacementScore | null;
  candidates: PlacementScore[];
  /** The adapter the 3' candidates looked before (given, or the known one found in the reads). */
  adapter: string | null;
  /** Set when most sampled reads would be undetermined: why, in a technician's words. */
  refusal: string | null;
}

/**
 * Reads of the sample the placement assigns to a sample, and the reads in which it could be
 * read at all: with an adapter, only reads that show the adapter show the 3' barcode before it
 * (a long insert hides it; Ultraplex leaves such reads without a 3' sample too).
 */
export function scorePlacement(
  p: Placement,
  mismatches: readonly number[],
  sample: LaneSample,
  tables: KeyTables | null = null,
): { assigned: number; readable: number } {
  const carrier = p.barcodeRead === 2 && sample.read2 ? sample.read2 : sample.read1;
  const adapter = adapterBytes(p.adapter);
  // Index fields are judged once per distinct pair (a few hundred): barcode by barcode, without
  // building a table of every code within the mismatches for them.
  const pairsOnly = p.source !== 'inline' && !adapter;
  const assign = sampleAssigner(p.design, mismatches, p.source === 'inline', pairsOnly ? null : tables);
  if (assign.indexOnly && !adapter && p.source !== 'inline') {
    // Index fields repeat from read to read: each distinct pair is judged once, for all its reads.
    let assigned = 0;
    for (const pair of indexPairs(sample, p.source)) if (assign(pair) >= 0) assigned += pair.reads;
    return { assigned, readable: sample.read1.length };
  }
  if (!adapter && assign.countSeqs) {
    return { assigned: assign.countSeqs(carrier, sample.read1.length), readable: sample.read1.length };
  }
  const headers = p.source === 'header' ? headerIndexes(sample) : null;
  const judged = assign.indexOnly ? new Map<string, number>() : null;
  let assigned = 0;
  let readable = 0;
  for (let k = 0; k < sample.read1.length; k++) {
    // Read 1, then read 2 reverse-complemented when the 3' barcode is read 2's start, cut at the
    // adapter; null: no adapter, no 3' barcode to read (the demultiplexer leaves it undetermined).
    const seq = threePrimeText(
      carrier[k]?.seq ?? '',
      p.threeOnRead2 ? (read2Reversed(sample)[k] ?? '') : null,
      adapter,
    );
    if (seq === null) continue;
    readable++;
    let i7: string | null = null;
    let i5: string | null = null;
    if (p.source === 'header') {
      const h = headers![k];
      i7 = h?.i7 ?? null;
      i5 = h?.i5 ?? null;
    } else if (p.source === 'index-reads') {
      i7 = sample.index1?.[k]?.seq ?? null;
      i5 = sample.index2?.[k]?.seq ?? null;
    }
    let to: number;
    if (judged) {
      const key = `${i7}\n${i5}`;
      to = judged.get(key) ?? -2;
      if (to === -2) judged.set(key, (to = assign({ seq, i7, i5 })));
    } else to = assign({ seq, i7, i5 });
    if (to >= 0) assigned++;
  }
  return { assigned, readable };
}

/** Each sampled read 2 reverse-complemented, once for all the paired 5'+3' placements. */
const reversedReads2 = new WeakMap<LaneSample, string[]>();
function read2Reversed(sample: LaneSample): string[] {
  let rc = reversedReads2.get(sample);
  if (!rc) reversedReads2.set(sample, (rc = (sample.read2 ?? []).map((r) => reverseComplement(r.seq))));
  return rc;
}

/** Each sampled read's header index, parsed once for all the header placements. */
const parsedHeaders = new WeakMap<LaneSample, Array<ReturnType<typeof headerIndex>>>();
function headerIndexes(sample: LaneSample): Array<ReturnType<typeof headerIndex>> {
  let parsed = parsedHeaders.get(sample);
  if (!parsed) parsedHeaders.set(sample, (parsed = sample.read1.map((r) => headerIndex(r.header))));
  return parsed;
}

interface IndexPair {
  seq: string;
  i7: string | null;
  i5: string | null;
  /** Sampled reads that carry this pair. */
  reads: number;
}

/**
 * The sample's distinct index pairs (from the headers or the index reads) with their read
 * counts, found once for all the index placements: a lane's first reads carry a few hundred.
 */
const pairsOf = new WeakMap<LaneSample, Map<string, IndexPair[]>>();
function indexPairs(sample: LaneSample, source: 'header' | 'index-reads'): IndexPair[] {
  let bySource = pairsOf.get(sample);
  if (!bySource) pairsOf.set(sample, (bySource = new Map()));
  let pairs = bySource.get(source);
  if (pairs) return pairs;
  const seen = new Map<string, IndexPair>();
  const headers = source === 'header' ? headerIndexes(sample) : null;
  for (let k = 0; k < sample.read1.length; k++) {
    const h = headers?.[k];
    const i7 = (headers ? h?.i7 : sample.index1?.[k]?.seq) ?? null;
    const i5 = (headers ? h?.i5 : sample.index2?.[k]?.seq) ?? null;
    const key = `${i7}\n${i5}`;
    const pair = seen.get(key);
    if (pair) pair.reads++;
    else seen.set(key, { seq: '', i7, i5, reads: 1 });
  }
  bySource.set(source, (pairs = [...seen.values()]));
  return pairs;
}

const pct = (f: number) => `${(100 * f).toFixed(f > 0 && f < 0.01 ? 2 : 1)}%`;

export interface DetectOptions {
  /** The lane named where its barcodes are: use the first candidate, and only check it. */
  given?: boolean;
  /** The 3' adapter; default: a known one found in the reads. */
  adapter?: string | null;
}

/** Scores every placement on the sampled reads and chooses one. */
export function detectPlacement<P extends PlacementPlan>(
  plan: P,
  sample: LaneSample,
  options: DetectOptions = {},
): { plan: P; detection: PlacementDetection } {
  const n = sample.read1.length;
  const hasThree = plan.design.segments.includes("3'") || plan.design.kind === 'plain';
  const carrierSeqs = (plan.barcodeRead === 2 && sample.read2 ? sample.read2 : sample.read1).map((r) => r.seq);
  const adapter = options.adapter ?? (hasThree ? detectAdapter(carrierSeqs) : null);
  const cands = candidatePlacements(plan, sample, adapter);
  // A table of every code within the mismatches pays for itself over some hundreds of reads.
  const tables: KeyTables | null = n >= 256 ? new Map() : null;
  const scores: PlacementScore[] = cands.map((p) => {
    const { assigned, readable } = n
      ? scorePlacement(p, plan.mismatches, sample, tables)
      : { assigned: 0, readable: 0 };
    return { id: p.id, description: p.description, assigned, readable, fraction: n ? assigned / n : 0 };
  });
  let best = 0;
  scores.forEach((s, i) => {
    if (s.assigned > scores[best]!.assigned) best = i;
  });
  const chosenAt = options.given ? 0 : best;
  const chosen = scores[chosenAt]!;
  let runner: PlacementScore | null = null;
  scores.forEach((s, i) => {
    if (i !== chosenAt && (!runner || s.assigned > runner.assigned)) runner = s;
  });
  const runnerUp = runner as PlacementScore | null;
  let refusal: string | null = null;
  if (n === 0) refusal = 'The lane has no reads: every sample would be empty';
  // With an adapter, reads hiding the 3' barcode behind a long insert do not count against it.
  else if (chosen.assigned < (1 - MOSTLY_UNDETERMINED) * Math.max(1, chosen.readable)) {
    const top = scores[best]!;
    const asked = scores[0]!;
    if (top !== chosen && top.fraction >= 1 - MOSTLY_UNDETERMINED) {
      refusal = `The barcodes are ${top.description}, not ${chosen.description}: ${pct(top.fraction)} of the first ${n} reads match a sample there, ${pct(chosen.fraction)} where the lane says`;
    } else if (chosen !== asked && chosen.fraction >= PLAUSIBLE && chosen.assigned > 2 * asked.assigned) {
      refusal = `Most reads match no sample (${pct(1 - chosen.fraction)} of the first ${n} undetermined): the barcodes look ${chosen.description}, not ${asked.description}, but even there most reads match no sample: check that the sheet lists every sample with the barcodes the reads carry`;
    } else {
      refusal = `Most reads match no sample wherever the barcodes are looked for (${pct(1 - chosen.fraction)} of the first ${n} undetermined ${chosen.description}${runnerUp ? `; next best ${runnerUp.description}, ${pct(runnerUp.fraction)} assigned` : ''}): check the sheet's barcodes against the lane`;
    }
  }
  const placement = cands[chosenAt]!;
  return {
    plan: {
      ...plan,
      design: placement.design,
      layout: placement.design.layout,
      source: placement.source,
      barcodeRead: placement.barcodeRead,
      adapter: placement.adapter,
      threeOnRead2: placement.threeOnRead2 === true,
      mateAdapter: placement.threeOnRead2 ? adapter : null,
    },
    detection: {
      sampled_reads: n,
      given: !!options.given,
      chosen,
      runner_up: runnerUp,
      candidates: scores,
      adapter,
      refusal,
    },
  };
}
