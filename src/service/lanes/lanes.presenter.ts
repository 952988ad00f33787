/** The JSON of a lane: status and progress, its samples with read counts, unknown barcodes. */
import type { ServiceContext } from '../context';
import type { DemuxResult } from '../demux/index';
import { laneWarnings, type LaneRow } from './lanes.store';
import { toEntries } from '../../shared/annotation/columns';
import { laneRows } from './lanes.store';

/** A lane as its owner sees it. */
export function presentLane(ctx: ServiceContext, row: LaneRow) {
  const created = ctx.db.prepare('SELECT id, name FROM samples WHERE lane_id = ? ORDER BY id').all(row.id) as Array<{
    id: number;
    name: string;
  }>;
  const ids = new Map(created.map((s) => [s.name, s.id]));
  const counts = row.read_counts ? (JSON.parse(row.read_counts) as Record<string, number>) : {};
  const owner = row.owner_user_id
    ? ((
        ctx.db.prepare('SELECT username FROM users WHERE id = ?').get(row.owner_user_id) as
          { username: string } | undefined
      )?.username ?? null)
    : null;
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
      reads: counts[e.sampleName] ?? null,
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
    owner,
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
  };
}

const issue = {
  type: 'object',
  properties: { row: { type: 'integer' }, column: { type: 'string' }, message: { type: 'string' } },
};

export const laneSchema = {
  type: 'object',
  required: ['id', 'name', 'status', 'progress', 'samples', 'warnings'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['demultiplexing', 'complete', 'failed'] },
    progress: { type: 'number' },
    error: { type: ['string', 'null'] },
    read1: { type: 'integer' },
    read2: { type: ['integer', 'null'] },
    paired: { type: 'boolean' },
    mismatches: { type: 'integer' },
    layout: { type: ['string', 'null'] },
    barcode_source: { type: 'string' },
    samples: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          barcode: { type: 'string' },
          sample_id: { type: ['integer', 'null'] },
          reads: { type: ['integer', 'null'] },
        },
      },
    },
    warnings: { type: 'array', items: issue },
    total_reads: { type: ['integer', 'null'] },
    undetermined_reads: { type: ['integer', 'null'] },
    undetermined_data: { type: 'array', items: { type: 'integer' } },
    unknown_barcodes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          barcode: { type: 'string' },
          count: { type: 'integer' },
          nearest: { type: ['string', 'null'] },
          distance: { type: ['integer', 'null'] },
        },
      },
    },
    index1: { type: ['integer', 'null'] },
    index2: { type: ['integer', 'null'] },
    barcode_read: { type: 'integer' },
    segment_mismatches: { type: 'array', items: { type: 'integer' } },
    report: {
      type: ['object', 'null'],
      description:
        "The demultiplexing report: reads per sample (with one and two mismatches), undetermined fraction, mismatches per segment and the most the barcodes allow, top unknown barcodes with their nearest sample, index hopping for dual indexes (unexpected pairs for 5'+3'), and the likely cause when most reads are undetermined",
      additionalProperties: true,
    },
    owner: { type: ['string', 'null'] },
    created: { type: 'string' },
    started: { type: ['string', 'null'] },
    finished: { type: ['string', 'null'] },
  },
} as const;
