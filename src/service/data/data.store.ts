/** The data_files table: records of stored files, who owns them, and who still uses them. */
import type { PageQuery } from '../../shared/service-api/page';
import type { ServiceContext } from '../context';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';
import type { AuthUser } from '../auth/authenticate';
import { visibleWhere } from '../policy/policy';
import { prepared } from '../db/statements';

export interface Owner {
  owner_user_id: number | null;
  owner_group_id: number | null;
}

export interface DataRow extends Owner {
  id: number;
  filename: string;
  size: number;
  data_type: string;
  checksum: string;
  storage_key: string;
  created: string;
  /** report: built by the service on request (a MultiQC report over a project or a lane). */
  source: 'upload' | 'execution' | 'lane' | 'report';
  execution_id: number | null;
  path: string | null;
  sample_id: number | null;
}

export interface NewDataRow {
  filename: string;
  dataType: string;
  owner: Owner;
  source: DataRow['source'];
  executionId?: number;
  path?: string;
  sampleId?: number;
  checksum: string;
  size: number;
}

/** Inserts a record for bytes already in the store (no file moves); used inside transactions. */
export function insertDataRow(ctx: ServiceContext, input: NewDataRow): DataRow {
  const created = new Date(ctx.clock.now()).toISOString();
  const info = prepared(
    ctx.db,
    `INSERT INTO data_files (filename, size, data_type, checksum, storage_key, owner_user_id, owner_group_id,
         created, source, execution_id, path, sample_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    input.filename,
    input.size,
    input.dataType,
    input.checksum,
    input.checksum,
    input.owner.owner_user_id,
    input.owner.owner_group_id,
    created,
    input.source,
    input.executionId ?? null,
    input.path ?? null,
    input.sampleId ?? null,
  );
  return getDataRow(ctx, Number(info.lastInsertRowid))!;
}

/** One data record by id, or undefined. */
export function getDataRow(ctx: ServiceContext, id: number): DataRow | undefined {
  return prepared(ctx.db, 'SELECT * FROM data_files WHERE id = ?').get(id) as DataRow | undefined;
}

/** Filters of the data list. */
export interface DataFilter {
  data_type?: string;
  source?: string;
  unassigned?: boolean;
}

/** One page of the data records the caller can see, newest first. */
export function dataPage(ctx: ServiceContext, user: AuthUser, filter: DataFilter, q: PageQuery) {
  const visible = visibleWhere('data', 'd', user);
  const where = [visible.sql];
  const params: unknown[] = [...visible.params];
  if (filter.data_type) {
    where.push('d.data_type = ?');
    params.push(filter.data_type);
  }
  if (filter.source) {
    where.push('d.source = ?');
    params.push(filter.source);
  }
  if (filter.unassigned) {
    where.push('NOT EXISTS (SELECT 1 FROM samples s WHERE s.read1_id = d.id OR s.read2_id = d.id)');
  }
  return selectPage<DataRow>(
    ctx.db,
    { from: 'data_files d', where: { sql: where.join(' AND '), params }, orderBy: 'd.id DESC', columns: 'd.*' },
    q,
  );
}

/** The id of a data record with this checksum that the caller can see, if any. */
export function findVisibleDuplicate(ctx: ServiceContext, user: AuthUser, checksum: string): number | undefined {
  const visible = visibleWhere('data', 'd', user);
  const row = prepared(
    ctx.db,
    `SELECT d.id FROM data_files d WHERE d.checksum = ? AND ${visible.sql} ORDER BY d.id LIMIT 1`,
  ).get(checksum, ...visible.params) as { id: number } | undefined;
  return row?.id;
}

/** The sample that holds a data record as one of its reads, if any. */
export function sampleHoldingRead(ctx: ServiceContext, dataId: number): number | undefined {
  const row = ctx.db.prepare('SELECT id FROM samples WHERE read1_id = ? OR read2_id = ?').get(dataId, dataId) as
    { id: number } | undefined;
  return row?.id;
}

/** The lane whose reads a data record holds, if any. */
export function laneHoldingRead(ctx: ServiceContext, dataId: number): number | undefined {
  const row = ctx.db.prepare('SELECT id FROM lanes WHERE read1_id = ? OR read2_id = ?').get(dataId, dataId) as
    { id: number } | undefined;
  return row?.id;
}

/** Deletes a data record and its shares (call inside a transaction with its audit entry). */
export function deleteDataRow(ctx: ServiceContext, id: number): void {
  ctx.db.prepare("DELETE FROM shares WHERE kind = 'data' AND resource_id = ?").run(id);
  ctx.db.prepare('DELETE FROM data_files WHERE id = ?').run(id);
}

/** A check whether any record still points at stored bytes, prepared once for a sweep. */
export function storageKeyInUse(db: Db): (key: string) => boolean {
  const referenced = db.prepare('SELECT 1 FROM data_files WHERE storage_key = ? LIMIT 1');
  return (key) => referenced.get(key) !== undefined;
}
