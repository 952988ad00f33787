/** The JSON of a sample: its fields, its data files, its projects and the caller's access. */
import { DataRecord } from '../../shared/service-api/data';
import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import type { DataRow } from '../data/data.store';
import type { AuthUser } from '../identity/authenticate';
import { visibleRecords } from '../policy/derived-data';
import { accessFields } from '../policy/policy';
import { metadataOf, type SampleRow } from './samples.store';

/** A sample as the caller sees it; `data` lists the reads first, then other files of the sample. */
export function presentSample(ctx: ServiceContext, row: SampleRow, user: AuthUser) {
  const data = ctx.db
    .prepare(
      `SELECT * FROM data_files WHERE id IN (?, ?) OR sample_id = ?
       ORDER BY CASE id WHEN ? THEN 0 WHEN ? THEN 1 ELSE 2 END, id`,
    )
    .all(row.read1_id, row.read2_id, row.id, row.read1_id, row.read2_id ?? -1) as DataRow[];
  const projects = ctx.db
    .prepare('SELECT project_id FROM project_samples WHERE sample_id = ? ORDER BY project_id')
    .all(row.id) as Array<{ project_id: number }>;
  return {
    id: row.id,
    name: row.name,
    read1: row.read1_id,
    read2: row.read2_id,
    paired: row.read2_id !== null,
    metadata: metadataOf(row),
    lane_id: row.lane_id,
    project_ids: projects.map((p) => p.project_id),
    created: row.created,
    updated: row.updated,
    // Reads of a shared sample and outputs of other people's runs appear only when visible.
    data: visibleRecords(ctx.db, data, user).map((d) => presentData(ctx, d, user)),
    ...accessFields(ctx.db, 'sample', row.id, user),
  };
}

export const sampleSchema = {
  type: 'object',
  required: ['id', 'name', 'read1', 'read2', 'metadata', 'data', 'can_edit'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    read1: { type: 'integer' },
    read2: { type: ['integer', 'null'] },
    paired: { type: 'boolean' },
    metadata: { type: 'object', additionalProperties: true },
    lane_id: { type: ['integer', 'null'] },
    project_ids: { type: 'array', items: { type: 'integer' } },
    created: { type: 'string' },
    updated: { type: 'string' },
    data: { type: 'array', items: DataRecord },
    owner: { type: ['string', 'null'] },
    group_owner: { type: ['string', 'null'] },
    can_edit: { type: 'boolean' },
    can_share: { type: 'boolean' },
  },
} as const;
