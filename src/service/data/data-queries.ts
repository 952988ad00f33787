/** Queries over data records through the policy: what the caller can see. */
import type { ServiceContext } from '../context';
import type { AuthUser } from '../identity/authenticate';
import { visibleWhere } from '../policy/policy';

/** The id of a data record with this checksum that the caller can see, if any. */
export function findVisibleDuplicate(ctx: ServiceContext, user: AuthUser, checksum: string): number | undefined {
  const visible = visibleWhere('data', 'd', user);
  const row = ctx.db
    .prepare(`SELECT d.id FROM data_files d WHERE d.checksum = ? AND ${visible.sql} ORDER BY d.id LIMIT 1`)
    .get(checksum, ...visible.params) as { id: number } | undefined;
  return row?.id;
}
