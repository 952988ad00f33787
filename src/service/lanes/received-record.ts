/**
 * A file received in a lane's or a sheet's form as the caller's data record: the record they can
 * already see with the same bytes (not stored twice), or a new one, typed by its extension and
 * audited with what brought it.
 */
import { audit } from '../audit/audit-log';
import type { AuthUser } from '../auth/authenticate';
import type { ServiceContext } from '../context';
import { createDataRecord, dataTypeFor } from '../data/data.commands';
import { findVisibleDuplicate } from '../data/data.store';
import type { ReceivedFile } from './lane-form';

export function recordOfReceived(
  ctx: ServiceContext,
  user: AuthUser,
  file: ReceivedFile,
  details: Record<string, unknown>,
): { id: number; created: boolean } {
  const dup = findVisibleDuplicate(ctx, user, file.sha256);
  if (dup !== undefined) return { id: dup, created: false };
  const record = createDataRecord(ctx, {
    sourceFile: file.path,
    filename: file.filename,
    dataType: dataTypeFor(file.filename),
    owner: { owner_user_id: user.id, owner_group_id: null },
    source: 'upload',
    checksum: file.sha256,
  });
  audit(ctx, user, 'created', { kind: 'data', id: record.id, name: record.filename }, details);
  return { id: record.id, created: true };
}
