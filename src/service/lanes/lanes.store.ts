/** The lanes table. */
import type { ServiceContext } from '../context';
import type { AnnotationRow, Issue } from '../../shared/annotation/columns';

export interface LaneRow {
  id: number;
  name: string;
  status: 'demultiplexing' | 'complete' | 'failed';
  progress: number;
  error: string | null;
  read1_id: number;
  read2_id: number | null;
  annotation: string;
  mismatches: number;
  warnings: string;
  read_counts: string | null;
  unknown_barcodes: string | null;
  total_reads: number | null;
  undetermined_reads: number | null;
  owner_user_id: number | null;
  owner_group_id: number | null;
  created: string;
  finished: string | null;
  layout: string | null;
  barcode_source: 'auto' | 'inline' | 'header' | 'index-reads';
  undetermined_data: string;
  started: string | null;
  index1_id: number | null;
  index2_id: number | null;
  barcode_read: number;
  /** JSON: mismatches per segment. */
  segment_mismatches: string | null;
  /** JSON: the demultiplexing report (DemuxResult). */
  report: string | null;
}

/** One lane row (no access check). */
export function laneById(ctx: ServiceContext, id: number): LaneRow | undefined {
  return ctx.db.prepare('SELECT * FROM lanes WHERE id = ?').get(id) as LaneRow | undefined;
}

/** The annotation rows a lane was created with. */
export function laneRows(row: LaneRow): AnnotationRow[] {
  return JSON.parse(row.annotation) as AnnotationRow[];
}

/** The warnings the technician accepted. */
export function laneWarnings(row: LaneRow): Issue[] {
  return JSON.parse(row.warnings) as Issue[];
}

/** An SQL condition true for lanes the caller can see: their own and their groups' lanes. */
export function laneVisibleWhere(alias: string, userId: number): { sql: string; params: unknown[] } {
  return {
    sql: `(${alias}.owner_user_id = ? OR ${alias}.owner_group_id IN
      (SELECT group_id FROM memberships WHERE user_id = ? AND role IN ('member', 'admin')))`,
    params: [userId, userId],
  };
}
