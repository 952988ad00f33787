/**
 * An annotation sheet kept as a data record (POST /api/data/sheets), for the Demultiplexing
 * pipeline's `annotation` parameter: chunked uploads take reads and references only, so without
 * this a sheet could not become a record, and the launch form's Upload refused every sheet.
 * The sheet is checked by the rules a demultiplexing run applies to it (demux-worker.ts plans
 * with no vocabulary and no reads), so a record that is kept can be run.
 */
import type { AuthUser } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { type DataRow, getDataRow } from '../data/data.store';
import type { ReceivedFile } from './lane-form';
import { recordOfReceived } from './received-record';
import { readCheckedSheet } from './sheet-check';

/** The record of a checked sheet: a new one, or the one the caller can see with the same bytes. */
export async function keepSheet(
  ctx: ServiceContext,
  user: AuthUser,
  file: ReceivedFile,
): Promise<{ row: DataRow; created: boolean }> {
  await readCheckedSheet(ctx, file, { source: 'auto', barcodeRead: 1 });
  const { id, created } = recordOfReceived(ctx, user, file, { annotation_sheet: true });
  return { row: getDataRow(ctx, id)!, created };
}
