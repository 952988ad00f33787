/**
 * What one demultiplexing run does, derived from an annotation sheet: the samples and their
 * barcode design (segments, layouts, mixed lengths), where the barcodes are read (inline in
 * read 1 or read 2, the read header's index field, or I1/I2 index-read files), and the
 * mismatches allowed per segment with the most the barcodes' distances allow.
 */
import {
  validateAnnotation,
  type AnnotationReport,
  type AnnotationRow,
  type AnnotationVocabulary,
  type BarcodeDesign,
} from '../../../shared/annotation/index';

import type { BarcodeSource } from '../../../shared/demux/placement-plan';

export type { BarcodeSource };

export interface DemuxPlan {
  /** One entry per sample: the barcode it matches (dual `i7+i5`, combinatorial `5'...3'`). */
  samples: Array<{ name: string; barcode: string; row?: number }>;
  design: BarcodeDesign;
  /** The inline layout(s) as one line, or null for index designs. */
  layout: string | null;
  /** Mismatches per segment of the design. */
  mismatches: number[];
  /** The most mismatches each segment's barcodes allow. */
  maxMismatches: number[];
  source: BarcodeSource;
  /** The read that carries inline barcodes (a paired lane may have them on read 2). */
  barcodeRead: 1 | 2;
  /** The 3' barcode sits right before this adapter (found in each read, cutadapt's rule). */
  adapter?: string | null;
  /**
   * Paired 5'+3' lanes as Ultraplex reads them with `-i2`: the 5' barcode at read 1's start, the
   * 3' barcode at read 2's start, reverse-complemented (read 2 is the insert's other strand).
   */
  threeOnRead2?: boolean;
  /**
   * Paired 5'+3' lanes: read 1's adapter (given, or the known one found in the reads). Where read 1
   * shows it, the fragment is shorter than the reads, and both mates are cut to the insert (as
   * Ultraplex cuts them): read 1 before the 3' barcode, read 2 before the 5' barcode.
   */
  mateAdapter?: string | null;
}

export interface PlanOptions {
  mismatches?: number | readonly number[];
  layout?: string;
  source?: BarcodeSource;
  barcodeRead?: 1 | 2;
  vocabulary?: AnnotationVocabulary;
  headers?: readonly string[];
}

/** Parses "1" or "1,0" (per segment); null when it is neither. */
export function parseMismatches(text: string): number[] | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > 2 || parts.some((p) => !/^[0-9]$/.test(p))) return null;
  return parts.map(Number);
}

/** Validates sheet rows and derives the plan; plan is null when the sheet has errors. */
export function planFromRows(
  rows: readonly AnnotationRow[],
  options: PlanOptions = {},
): { plan: DemuxPlan | null; report: AnnotationReport } {
  const report = validateAnnotation(rows, options.vocabulary ?? {}, {
    kind: 'lane',
    mismatches: options.mismatches,
    layout: options.layout,
    headers: options.headers,
  });
  if (report.errors.length || !report.design) return { plan: null, report };
  const design = report.design;
  const asked = options.source ?? 'auto';
  const refuse = (message: string) => {
    report.errors.push({ row: 1, column: 'Barcode', message });
    return { plan: null, report };
  };
  if (design.kind === 'inline' && (asked === 'header' || asked === 'index-reads')) {
    return refuse(
      `The layout ${design.layout} describes barcodes inside the reads, not in ${asked === 'header' ? 'the read header' : 'index reads'}`,
    );
  }
  if (design.kind === 'index' && asked === 'inline') {
    return refuse('Dual indexes are read from the read header or from index-read files (I1, I2), not inline');
  }
  const source: BarcodeSource =
    design.kind === 'inline' ? 'inline' : design.kind === 'index' && asked === 'auto' ? 'header' : asked;
  return {
    plan: {
      samples: design.barcodes.map((b) => ({ name: b.sample, barcode: b.barcode, row: b.row })),
      design,
      layout: design.layout,
      mismatches: report.segmentMismatches,
      maxMismatches: report.maxMismatches,
      source,
      barcodeRead: options.barcodeRead ?? 1,
    },
    report,
  };
}
