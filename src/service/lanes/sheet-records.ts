/**
 * An annotation sheet kept as a data record (POST /api/data/sheets), for the Demultiplexing
 * pipeline's `annotation` parameter: chunked uploads take reads and references only, so without
 * this a sheet could not become a record, and the launch form's Upload refused every sheet.
 * The sheet is checked by the rules a demultiplexing run applies to it (demux-worker.ts plans
 * with no vocabulary and no reads), so a record that is kept can be run.
 */
import { audit } from '../audit/audit-log';
import type { AuthUser } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { createDataRecord, dataTypeFor } from '../data/data.commands';
import { type DataRow, findVisibleDuplicate, getDataRow } from '../data/data.store';
import type { ReceivedFile } from './lane-form';
import { readCheckedSheet } from './sheet-check';

/** The record of a checked sheet: a new one, or the one the caller can see with the same bytes. */
export async function keepSheet(
  ctx: ServiceContext,
  user: AuthUser,
  file: ReceivedFile,
): Promise<{ row: DataRow; created: boolean }> {
  await readCheckedSheet(ctx, file, { source: 'auto', barcodeRead: 1 });
  const dup = findVisibleDuplicate(ctx, user, file.sha256);
  if (dup !== undefined) return { row: getDataRow(ctx, dup)!, created: false };
  const row = createDataRecord(ctx, {
    sourceFile: file.path,
    filename: file.filename,
    dataType: dataTypeFor(file.filename),
    owner: { owner_user_id: user.id, owner_group_id: null },
    source: 'upload',
    checksum: file.sha256,
  });
  audit(ctx, user, 'created', { kind: 'data', id: row.id, name: row.filename }, { annotation_sheet: true });
  return { row, created: true };
}
