/**
 * The derived-data policy (docs/security.md, "Derived data"): bytes follow the data record. Whoever reads
 * a file's bytes, by any route (download, a pipeline input, chaining, a file parameter,
 * demultiplexing, a lane's reads, GraphQL), needs `view` on that data record itself. Access to
 * a sample does not include its read files, and access to an execution does not include its
 * outputs: each is shared on its own. Bodies list only the records the caller may view.
 *
 * Every route that hands out bytes or lists data records asks here, so the rule cannot drift.
 */
import type { Db } from '../db/database';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, satisfies } from './policy';

/** True when the caller may read the bytes of data record `id` (view on the record itself). */
export function canReadData(db: Db, id: number, user: AuthUser): boolean {
  return satisfies(accessTo(db, 'data', id, user), 'view');
}

/** The ids among `ids` whose bytes the caller may not read. */
export function unreadableData(db: Db, ids: Iterable<number>, user: AuthUser): number[] {
  return [...ids].filter((id) => !canReadData(db, id, user));
}

/** Only the data records (anything with an `id`) the caller may view, in order. */
export function visibleRecords<T extends { id: number }>(db: Db, records: T[], user: AuthUser): T[] {
  return records.filter((r) => canReadData(db, r.id, user));
}

/** True when the caller may see the sample (view on it). */
export function canSeeSample(db: Db, id: number, user: AuthUser): boolean {
  return satisfies(accessTo(db, 'sample', id, user), 'view');
}
