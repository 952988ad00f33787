/**
 * What placement detection (placement-detect.ts) reads of a lane's plan and of its first reads:
 * shared so that the service's demultiplexer and the annotation editor's barcode check choose
 * the same placement from the same reads.
 */
import type { BarcodeDesign } from '../annotation/design';

/** auto: the read header when its index field fits the barcodes, else inline. */
export type BarcodeSource = 'auto' | 'inline' | 'header' | 'index-reads';

/** The part of a lane's plan that placement detection reads and rewrites. */
export interface PlacementPlan {
  design: BarcodeDesign;
  /** The inline layout(s) as one line, or null for index designs. */
  layout: string | null;
  /** Mismatches per segment of the design. */
  mismatches: number[];
  source: BarcodeSource;
  /** The read that carries inline barcodes (a paired lane may have them on read 2). */
  barcodeRead: 1 | 2;
  /** The 3' barcode sits right before this adapter. */
  adapter?: string | null;
  /** The 3' barcode is at read 2's start, reverse-complemented. */
  threeOnRead2?: boolean;
  /** Paired 5'+3' lanes: read 1's adapter, where both mates are cut to the insert. */
  mateAdapter?: string | null;
}

/** One sampled read: its header line and its bases. */
export interface SampledRead {
  header: string;
  seq: string;
}

/** The first reads of every file of a lane (null: the lane has no such file). */
export interface LaneSample {
  read1: SampledRead[];
  read2: SampledRead[] | null;
  index1: SampledRead[] | null;
  index2: SampledRead[] | null;
}
