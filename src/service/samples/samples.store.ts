/** The samples table. */
import type { PageQuery } from '../../shared/service-api/page';
import type { ServiceContext } from '../context';
import type { DataRow } from '../data/data.store';
import { selectPage } from '../db/select-page';
import type { AuthUser } from '../auth/authenticate';
import { visibleWhere } from '../policy/policy';
import type { Metadata } from './sample-metadata';

export interface SampleRow {
  id: number;
  name: string;
  read1_id: number;
  read2_id: number | null;
  metadata: string;
  owner_user_id: number | null;
  owner_group_id: number | null;
  lane_id: number | null;
  created: string;
  updated: string;
}

/** One sample row (no access check). */
export function sampleById(ctx: ServiceContext, id: number): SampleRow | undefined {
  return ctx.db.prepare('SELECT * FROM samples WHERE id = ?').get(id) as SampleRow | undefined;
}

/** The parsed metadata of a sample row. */
export function metadataOf(row: SampleRow): Metadata {
  return JSON.parse(row.metadata) as Metadata;
}

/** Inserts a sample and marks its reads as the sample's (inside the caller's transaction). */
export function insertSample(ctx: ServiceContext, row: Omit<SampleRow, 'id'>): number {
  const info = ctx.db
    .prepare(
      `INSERT INTO samples (name, read1_id, read2_id, metadata, owner_user_id, owner_group_id, lane_id, created, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.name,
      row.read1_id,
      row.read2_id,
      row.metadata,
      row.owner_user_id,
      row.owner_group_id,
      row.lane_id,
      row.created,
      row.updated,
    );
  const sampleId = Number(info.lastInsertRowid);
  ctx.db.prepare('UPDATE data_files SET sample_id = ? WHERE id IN (?, ?)').run(sampleId, row.read1_id, row.read2_id);
  return sampleId;
}

/** Sets a sample's name and metadata (JSON), each kept when null. */
export function updateSampleRow(
  ctx: ServiceContext,
  id: number,
  name: string | null,
  metadata: string | null,
  now: string,
): void {
  ctx.db
    .prepare('UPDATE samples SET name = COALESCE(?, name), metadata = COALESCE(?, metadata), updated = ? WHERE id = ?')
    .run(name, metadata, now, id);
}

/** Deletes a sample, its project memberships and shares; its data records stay (inside a transaction). */
export function deleteSampleRows(ctx: ServiceContext, id: number): void {
  ctx.db.prepare('UPDATE data_files SET sample_id = NULL WHERE sample_id = ?').run(id);
  ctx.db.prepare('DELETE FROM project_samples WHERE sample_id = ?').run(id);
  ctx.db.prepare("DELETE FROM shares WHERE kind = 'sample' AND resource_id = ?").run(id);
  ctx.db.prepare('DELETE FROM samples WHERE id = ?').run(id);
}

/** Filters of the sample list. */
export interface SampleFilter {
  name?: string;
  organism?: string;
  category?: string;
  project?: number;
  lane?: number;
  paired?: boolean;
  /** Only samples this user owns. */
  owner?: number;
  /** ISO times: created after / before (the Flow mount's created_gt / created_lt). */
  createdAfter?: string;
  createdBefore?: string;
  /** Newest first unless told. */
  order?: 'newest' | 'oldest' | 'name' | '-name';
}

const SAMPLE_ORDER = {
  newest: 's.id DESC',
  oldest: 's.id ASC',
  name: 's.name ASC, s.id',
  '-name': 's.name DESC, s.id',
};

/** One page of the samples the caller can see, newest first. */
export function samplePage(ctx: ServiceContext, user: AuthUser, q: SampleFilter, page: PageQuery) {
  const visible = visibleWhere('sample', 's', user);
  const where = [visible.sql];
  const params: unknown[] = [...visible.params];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (q.name) add("s.name LIKE ? ESCAPE '\\'", `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.organism) add("lower(json_extract(s.metadata, '$.organism')) = lower(?)", q.organism);
  if (q.category) add("lower(json_extract(s.metadata, '$.category')) = lower(?)", q.category);
  if (q.project) add('s.id IN (SELECT sample_id FROM project_samples WHERE project_id = ?)', q.project);
  if (q.lane) add('s.lane_id = ?', q.lane);
  if (q.paired !== undefined) where.push(q.paired ? 's.read2_id IS NOT NULL' : 's.read2_id IS NULL');
  if (q.owner !== undefined) add('s.owner_user_id = ?', q.owner);
  if (q.createdAfter) add('s.created > ?', q.createdAfter);
  if (q.createdBefore) add('s.created < ?', q.createdBefore);
  const orderBy = SAMPLE_ORDER[q.order ?? 'newest'];
  return selectPage<SampleRow>(
    ctx.db,
    { from: 'samples s', where: { sql: where.join(' AND '), params }, orderBy, columns: 's.*' },
    page,
  );
}

/** The data records of a sample: its reads first, then other files of the sample. */
export function sampleDataRows(ctx: ServiceContext, row: SampleRow): DataRow[] {
  return ctx.db
    .prepare(
      `SELECT * FROM data_files WHERE id IN (?, ?) OR sample_id = ?
       ORDER BY CASE id WHEN ? THEN 0 WHEN ? THEN 1 ELSE 2 END, id`,
    )
    .all(row.read1_id, row.read2_id, row.id, row.read1_id, row.read2_id ?? -1) as DataRow[];
}

/** The projects a sample belongs to that the user may see, by id (issue 24: no others' ids). */
export function sampleProjectIds(ctx: ServiceContext, sampleId: number, user: AuthUser): number[] {
  const visible = visibleWhere('project', 'p', user);
  const rows = ctx.db
    .prepare(
      `SELECT p.id FROM project_samples ps JOIN projects p ON p.id = ps.project_id
       WHERE ps.sample_id = ? AND ${visible.sql} ORDER BY p.id`,
    )
    .all(sampleId, ...visible.params) as Array<{ id: number }>;
  return rows.map((p) => p.id);
}
