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

/** Samples the lane's first reads and chooses where its barcodes are. */
export async function choosePlacement(
  plan: DemuxPlan,
  files: LaneFiles,
  options: DetectOptions & { reads?: number } = {},
): Promise<{ plan: DemuxPlan; detection: PlacementDetection }> {
  const sample = await sampleLane(files, options.reads ?? SAMPLE_READS);
  return detectPlacement(plan, sample, options);
}
