/** The JSON of a sample: its fields, its data files, its projects and the caller's access. */
import type { Sample } from '../../shared/service-api/samples';
import type { ServiceContext } from '../context';
import { presentData } from '../data/data.presenter';
import type { AuthUser } from '../auth/authenticate';
import { visibleRecords } from '../policy/derived-data';
import { accessFields } from '../policy/policy';
import { metadataOf, sampleDataRows, sampleProjectIds, type SampleRow } from './samples.store';

/** A sample as the caller sees it; `data` lists the reads first, then other files of the sample. */
export function presentSample(ctx: ServiceContext, row: SampleRow, user: AuthUser): Sample {
  const data = sampleDataRows(ctx, row);
  return {
    id: row.id,
    name: row.name,
    read1: row.read1_id,
    read2: row.read2_id,
    paired: row.read2_id !== null,
    metadata: metadataOf(row),
    lane_id: row.lane_id,
    project_ids: sampleProjectIds(ctx, row.id, user),
    created: row.created,
    updated: row.updated,
    // Reads of a shared sample and outputs of other people's runs appear only when visible.
    data: visibleRecords(ctx.db, data, user).map((d) => presentData(ctx, d, user)),
    ...accessFields(ctx.db, 'sample', row.id, user),
  };
}
