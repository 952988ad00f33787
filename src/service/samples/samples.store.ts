/** The samples table. */
import type { ServiceContext } from '../context';
import type { Metadata } from './sample-metadata';

export interface SampleRow {
  id: number;
  name: string;
  read1_id: number;
  read2_id: number | null;
  metadata: string;
  owner_user_id: number | null;
  owner_group_id: number | null;
  lane_id: number | null;
  created: string;
  updated: string;
}

/** One sample row (no access check). */
export function sampleById(ctx: ServiceContext, id: number): SampleRow | undefined {
  return ctx.db.prepare('SELECT * FROM samples WHERE id = ?').get(id) as SampleRow | undefined;
}

/** The parsed metadata of a sample row. */
export function metadataOf(row: SampleRow): Metadata {
  return JSON.parse(row.metadata) as Metadata;
}

/** The sample that holds a data record as one of its reads, if any. */
export function sampleHoldingRead(ctx: ServiceContext, dataId: number): number | undefined {
  const row = ctx.db.prepare('SELECT id FROM samples WHERE read1_id = ? OR read2_id = ?').get(dataId, dataId) as
    { id: number } | undefined;
  return row?.id;
}
