/** The JSON body of a data record. */
import type { DataRecord } from '../../shared/service-api/data';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { accessFields } from '../policy/policy';
import type { DataRow } from './data.store';

/** A data record as the caller sees it. */
export function presentData(ctx: ServiceContext, row: DataRow, user: AuthUser): DataRecord {
  return {
    id: row.id,
    filename: row.filename,
    size: row.size,
    data_type: row.data_type,
    checksum: row.checksum,
    created: row.created,
    source: row.source,
    path: row.path,
    execution_id: row.execution_id,
    sample_id: row.sample_id,
    ...accessFields(ctx.db, 'data', row.id, user),
  };
}
