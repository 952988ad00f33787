/**
 * Where a lane's barcodes are, found from its first reads (src/shared/demux/placement-detect.ts,
 * which the annotation editor's barcode check runs too): this side samples the lane's files.
 */
import { detectPlacement, type DetectOptions, type PlacementDetection } from '../../../shared/demux/placement-detect';
import type { DemuxPlan } from './plan';
import { sampleLane, SAMPLE_READS, type LaneFiles } from './read-sample';

export {
  detectPlacement,
  MOSTLY_UNDETERMINED,
  scorePlacement,
  type DetectOptions,
  type Placement,
  type PlacementDetection,
  type PlacementScore,
} from '../../../shared/demux/placement-detect';

/**
 * Reads a lane is first judged on. Scoring every candidate placement on 4,000 reads was a tenth
 * of a 500,000-read `laneway demux` (27 of 260 ms; 13 on 1,000 reads), and a lane whose barcodes
 * are plain to see is decided as surely on a quarter of them (below).
 */
export const FIRST_SAMPLE_READS = 1000;
/** A first judgement stands when the chosen placement assigns this share... */
const PLAIN_SHARE = 0.9;
/** ...and leads every other by this share of the reads. */
const PLAIN_LEAD = 0.2;

/**
 * Whether the judgement on the first reads is the one more reads would give: the chosen
 * placement assigns nearly every read and no other comes near. A share measured on 1,000 reads
 * is within 3 points of the lane's (two standard errors at the worst, a share of one half), so a
 * lead of 20 cannot turn over; anything closer, a refusal, or a 3' placement that long inserts
 * hide from some reads is judged again on the full sample, as before.
 */
export function plainOnFirstReads(d: PlacementDetection, asked: number): boolean {
  if (d.sampled_reads < asked) return true; // the lane has no more reads: more cannot change it
  if (d.refusal || d.chosen.fraction < PLAIN_SHARE) return false;
  return !d.runner_up || d.chosen.fraction - d.runner_up.fraction >= PLAIN_LEAD;
}

/**
 * Samples the lane's first reads and chooses where its barcodes are: on the first 1,000 reads
 * when that settles it, else on `reads` (default 4,000). `reads` given: exactly that many.
 */
export async function choosePlacement(
  plan: DemuxPlan,
  files: LaneFiles,
  options: DetectOptions & { reads?: number } = {},
): Promise<{ plan: DemuxPlan; detection: PlacementDetection }> {
  const full = options.reads ?? SAMPLE_READS;
  if (options.reads === undefined && FIRST_SAMPLE_READS < full) {
    const first = detectPlacement(plan, await sampleLane(files, FIRST_SAMPLE_READS), options);
    if (plainOnFirstReads(first.detection, FIRST_SAMPLE_READS)) return first;
  }
  return detectPlacement(plan, await sampleLane(files, full), options);
}
