/** The JSON of a lane: status and progress, its samples with read counts, unknown barcodes. */
import type { ServiceContext } from '../context';
import type { DemuxResult } from '../tools/demux/index';
import { laneOwnerName, laneRows, laneSampleIds, laneWarnings, type LaneRow } from './lanes.store';
import { toEntries } from '../../shared/annotation/columns';
import type { Lane } from '../../shared/service-api/lanes';

/** A lane as its owner sees it. */
export function presentLane(ctx: ServiceContext, row: LaneRow): Lane {
  const ids = laneSampleIds(ctx, row.id);
  const counts = row.read_counts ? (JSON.parse(row.read_counts) as Record<string, number>) : {};
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    progress: row.progress,
    error: row.error,
    read1: row.read1_id,
    read2: row.read2_id,
    paired: row.read2_id !== null,
    mismatches: row.mismatches,
    layout: row.layout,
    barcode_source: row.barcode_source,
    samples: toEntries(laneRows(row)).map((e) => ({
      name: e.sampleName,
      barcode: e.barcode,
      sample_id: ids.get(e.sampleName) ?? null,
      // Own counts only: a sample named `constructor` or `toString` (names a sheet may give)
      // would otherwise read the inherited member while the lane has no counts yet.
      reads: Object.hasOwn(counts, e.sampleName) ? counts[e.sampleName]! : null,
    })),
    warnings: laneWarnings(row),
    total_reads: row.total_reads,
    undetermined_reads: row.undetermined_reads,
    undetermined_data: JSON.parse(row.undetermined_data) as number[],
    unknown_barcodes: row.unknown_barcodes
      ? (JSON.parse(row.unknown_barcodes) as Array<{ barcode: string; count: number }>)
      : [],
    index1: row.index1_id,
    index2: row.index2_id,
    barcode_read: row.barcode_read,
    segment_mismatches: row.segment_mismatches ? (JSON.parse(row.segment_mismatches) as number[]) : [row.mismatches],
    report: row.report ? presentReport(JSON.parse(row.report) as DemuxResult) : null,
    owner: laneOwnerName(ctx, row),
    created: row.created,
    started: row.started,
    finished: row.finished,
  };
}

/** The demultiplexing report as a lane shows it (files and timings left out). */
function presentReport(r: DemuxResult) {
  return {
    source: r.source,
    segments: r.segments,
    layout: r.layout,
    segment_mismatches: r.segment_mismatches,
    max_mismatches: r.max_mismatches,
    barcode_read: r.barcode_read,
    total_reads: r.total_reads,
    undetermined_reads: r.undetermined_reads,
    undetermined_fraction: r.undetermined_fraction,
    samples: r.samples.map((s) => ({
      name: s.name,
      barcode: s.barcode,
      reads: s.reads,
      one_mismatch: s.one_mismatch,
      two_mismatches: s.two_mismatches,
    })),
    top_unknown: r.top_unknown,
    hopping: r.hopping,
    diagnosis: r.diagnosis,
    adapter: r.adapter ?? null,
    detection: r.detection ?? null,
  };
}
