/** Messages between the service and its sheet-parsing thread. */
import type { TableLimits } from '../../../shared/sheets/table-limits';
import type { AnnotationReport } from '../../../shared/annotation';
import type { DemuxPlan, PlanOptions } from './plan';
import type { PlacementDetection } from './placement';
import type { LaneFiles } from './read-sample';
import type { ReadSheetResult } from '../../sheets/sheet-reader';

/** The lane's demultiplexing options: the sheet's rows are checked and planned in the thread too. */
export type LanePlanOptions = Omit<PlanOptions, 'headers'> & {
  /** The lane's reads: where the barcodes are is then chosen (or checked) from their first reads. */
  reads?: LaneFiles;
  /** The lane named where its barcodes are (barcode_source): check that placement, choose none. */
  placementGiven?: boolean;
  adapter?: string;
};

/** A sheet as read, and for a lane its plan and the rules' report. */
export interface ParsedSheet extends ReadSheetResult {
  planned?: { plan: DemuxPlan | null; report: AnnotationReport; detection?: PlacementDetection };
}

export interface ParseRequest {
  id: number;
  path: string;
  filename: string;
  limits: Partial<TableLimits>;
  plan?: LanePlanOptions;
}

export type ParseReply =
  | { ready: true }
  | { id: number; ok: true; result: ParsedSheet }
  | {
      id: number;
      ok: false;
      /** A TableReadError's fields; `internal` when the parse failed in an unexpected way. */
      error: { message: string; row: number; column: string; limit: keyof TableLimits | null; internal?: boolean };
    };
