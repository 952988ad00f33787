/** The JSON body of a data record. */
import type { DataRecord } from '../../shared/service-api/data';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { accessFields, accessTo } from '../policy/policy';
import type { DataRow } from './data.store';

/**
 * A data record as the caller sees it. The sample it belongs to and the execution that made it
 * are named only when the caller may see them (issue 24: a shared output named the id of a
 * sample or run that was not shared).
 */
export function presentData(ctx: ServiceContext, row: DataRow, user: AuthUser): DataRecord {
  const seen = (kind: 'sample' | 'execution', id: number | null) =>
    id !== null && accessTo(ctx.db, kind, id, user) !== null ? id : null;
  return {
    id: row.id,
    filename: row.filename,
    size: row.size,
    data_type: row.data_type,
    checksum: row.checksum,
    created: row.created,
    source: row.source,
    path: row.path,
    execution_id: seen('execution', row.execution_id),
    sample_id: seen('sample', row.sample_id),
    ...accessFields(ctx.db, 'data', row.id, user),
  };
}
