/** The Flow mount's own reads: the projects a user owns (Flow's /projects/owned). */
import type { ServiceContext } from '../context';
import type { ProjectRow } from '../projects/projects.store';

/** One page of the projects the user owns personally, newest first, and their total. */
export function ownedProjectsPage(
  ctx: ServiceContext,
  userId: number,
  page: number,
  count: number,
): { total: number; rows: ProjectRow[] } {
  const total = (
    ctx.db.prepare('SELECT count(*) AS n FROM projects WHERE owner_user_id = ?').get(userId) as { n: number }
  ).n;
  const rows = ctx.db
    .prepare('SELECT * FROM projects WHERE owner_user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?')
    .all(userId, count, (page - 1) * count) as ProjectRow[];
  return { total, rows };
}
