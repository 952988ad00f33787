/**
 * What one demultiplexing run does, derived from an annotation sheet: the samples and their
 * barcodes, where the barcodes are (inline at the 5' end, or in the read header's index field),
 * the inline layout with UMI positions, and the mismatches allowed.
 */
import {
  validateAnnotation,
  type AnnotationReport,
  type AnnotationRow,
  type AnnotationVocabulary,
} from '../../shared/annotation/index';

export type BarcodeSource = 'auto' | 'inline' | 'header';

export interface DemuxPlan {
  /** One entry per sample: the barcode part to match (dual indexes as `i7+i5`). */
  samples: Array<{ name: string; barcode: string; row?: number }>;
  /** Inline layout such as `NNNXXXXXNN`, or null for plain barcodes. */
  layout: string | null;
  mismatches: number;
  /** auto: the read header when its index field fits the barcodes, else inline. */
  source: BarcodeSource;
}

export interface PlanOptions {
  mismatches?: number;
  layout?: string;
  source?: BarcodeSource;
  vocabulary?: AnnotationVocabulary;
  headers?: readonly string[];
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
  const source = options.source ?? 'auto';
  if (design.layout && source === 'header') {
    report.errors.push({
      row: 1,
      column: 'Barcode',
      message: `A layout with UMI positions (${design.layout}) describes inline barcodes, not the read header`,
    });
    return { plan: null, report };
  }
  if (design.dual && source === 'inline') {
    report.errors.push({ row: 1, column: 'Barcode', message: 'Dual indexes are read from the read header only' });
    return { plan: null, report };
  }
  return {
    plan: {
      samples: design.barcodes.map((b) => ({ name: b.sample, barcode: b.barcode, row: b.row })),
      layout: design.layout,
      mismatches: report.mismatches,
      source: design.layout ? 'inline' : design.dual ? 'header' : source,
    },
    report,
  };
}
