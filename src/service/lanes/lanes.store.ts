/** The lanes table. */
import type { PageQuery } from '../../shared/service-api/page';
import type { ServiceContext } from '../context';
import { selectPage } from '../db/select-page';
import { visibleWhere } from '../policy/policy.store';
import { toEntries, type AnnotationRow, type Issue } from '../../shared/annotation/columns';

export interface LaneRow {
  id: number;
  name: string;
  status: 'demultiplexing' | 'complete' | 'failed';
  progress: number;
  error: string | null;
  read1_id: number;
  read2_id: number | null;
  annotation: string;
  mismatches: number;
  warnings: string;
  read_counts: string | null;
  unknown_barcodes: string | null;
  total_reads: number | null;
  undetermined_reads: number | null;
  owner_user_id: number | null;
  owner_group_id: number | null;
  created: string;
  finished: string | null;
  layout: string | null;
  barcode_source: 'auto' | 'inline' | 'header' | 'index-reads';
  undetermined_data: string;
  started: string | null;
  index1_id: number | null;
  index2_id: number | null;
  barcode_read: number;
  /** JSON: mismatches per segment. */
  segment_mismatches: string | null;
  /** JSON: the demultiplexing report (DemuxResult). */
  report: string | null;
  /** The 3' adapter the lane named, or null. */
  adapter: string | null;
}

/** One lane row (no access check). */
export function laneById(ctx: ServiceContext, id: number): LaneRow | undefined {
  return ctx.db.prepare('SELECT * FROM lanes WHERE id = ?').get(id) as LaneRow | undefined;
}

/** The annotation rows a lane was created with. */
export function laneRows(row: LaneRow): AnnotationRow[] {
  return JSON.parse(row.annotation) as AnnotationRow[];
}

/** The warnings the technician accepted. */
export function laneWarnings(row: LaneRow): Issue[] {
  return JSON.parse(row.warnings) as Issue[];
}

/** An SQL condition true for lanes the caller can see: their own and their groups' lanes. */
export function laneVisibleWhere(alias: string, userId: number): { sql: string; params: unknown[] } {
  return {
    sql: `(${alias}.owner_user_id = ? OR ${alias}.owner_group_id IN
      (SELECT group_id FROM memberships WHERE user_id = ? AND role IN ('member', 'admin')))`,
    params: [userId, userId],
  };
}

/** One page of the lanes a user can see, newest first, optionally of one status. */
export function lanePage(ctx: ServiceContext, userId: number, status: string | undefined, q: PageQuery) {
  const visible = laneVisibleWhere('l', userId);
  const where = [visible.sql];
  const params = [...visible.params];
  if (status) {
    where.push('l.status = ?');
    params.push(status);
  }
  return selectPage<LaneRow>(
    ctx.db,
    { from: 'lanes l', where: { sql: where.join(' AND '), params }, orderBy: 'l.id DESC', columns: 'l.*' },
    q,
  );
}

/** A lane the user can see, or undefined. */
export function visibleLane(ctx: ServiceContext, userId: number, id: number): LaneRow | undefined {
  const visible = laneVisibleWhere('l', userId);
  return ctx.db.prepare(`SELECT l.* FROM lanes l WHERE l.id = ? AND ${visible.sql}`).get(id, ...visible.params) as
    LaneRow | undefined;
}

/** The samples a lane created, by name. */
export function laneSampleIds(ctx: ServiceContext, laneId: number): Map<string, number> {
  const rows = ctx.db.prepare('SELECT id, name FROM samples WHERE lane_id = ? ORDER BY id').all(laneId) as Array<{
    id: number;
    name: string;
  }>;
  return new Map(rows.map((s) => [s.name, s.id]));
}

/** The username of a lane's owner, or null. */
export function laneOwnerName(ctx: ServiceContext, row: LaneRow): string | null {
  if (!row.owner_user_id) return null;
  const owner = ctx.db.prepare('SELECT username FROM users WHERE id = ?').get(row.owner_user_id) as
    { username: string } | undefined;
  return owner?.username ?? null;
}

export interface NewLaneRow {
  name: string;
  read1_id: number;
  read2_id: number | null;
  annotation: string;
  mismatches: number;
  warnings: string;
  layout: string | null;
  barcode_source: LaneRow['barcode_source'];
  owner_user_id: number;
  created: string;
  index1_id: number | null;
  index2_id: number | null;
  barcode_read: number;
  segment_mismatches: string;
  adapter: string | null;
}

/** Inserts a lane in status demultiplexing; returns its id. */
export function insertLane(ctx: ServiceContext, l: NewLaneRow): number {
  const info = ctx.db
    .prepare(
      `INSERT INTO lanes (name, status, progress, read1_id, read2_id, annotation, mismatches, warnings, layout,
         barcode_source, owner_user_id, owner_group_id, created, index1_id, index2_id, barcode_read, segment_mismatches,
         adapter)
       VALUES (?, 'demultiplexing', 0, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      l.name,
      l.read1_id,
      l.read2_id,
      l.annotation,
      l.mismatches,
      l.warnings,
      l.layout,
      l.barcode_source,
      l.owner_user_id,
      l.created,
      l.index1_id,
      l.index2_id,
      l.barcode_read,
      l.segment_mismatches,
      l.adapter,
    );
  return Number(info.lastInsertRowid);
}

/** Ids of lanes still demultiplexing (a previous process left them unfinished). */
export function demultiplexingLaneIds(ctx: ServiceContext): number[] {
  const rows = ctx.db.prepare("SELECT id FROM lanes WHERE status = 'demultiplexing'").all() as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

/** Marks a lane's run as started (progress back to 0). */
export function markLaneStarted(ctx: ServiceContext, id: number, started: string): void {
  ctx.db.prepare('UPDATE lanes SET progress = 0, started = ? WHERE id = ?').run(started, id);
}

/** Records a lane's progress in percent. */
export function setLaneProgress(ctx: ServiceContext, id: number, pct: number): void {
  ctx.db.prepare('UPDATE lanes SET progress = ? WHERE id = ?').run(pct, id);
}

/** Marks a lane failed with its error. */
export function failLane(ctx: ServiceContext, id: number, error: string, finished: string): void {
  ctx.db.prepare("UPDATE lanes SET status = 'failed', error = ?, finished = ? WHERE id = ?").run(error, finished, id);
}

export interface LaneOutcome {
  read_counts: string;
  unknown_barcodes: string;
  total_reads: number;
  undetermined_reads: number;
  undetermined_data: string;
  finished: string;
  report: string;
}

/** Marks a lane complete with its counts and report (inside the transaction that made its samples). */
export function completeLane(ctx: ServiceContext, id: number, o: LaneOutcome): void {
  ctx.db
    .prepare(
      `UPDATE lanes SET status = 'complete', progress = 100, error = NULL, read_counts = ?, unknown_barcodes = ?,
         total_reads = ?, undetermined_reads = ?, undetermined_data = ?, finished = ?, report = ? WHERE id = ?`,
    )
    .run(
      o.read_counts,
      o.unknown_barcodes,
      o.total_reads,
      o.undetermined_reads,
      o.undetermined_data,
      o.finished,
      o.report,
      id,
    );
}

/** Sample names of the sheet the caller already sees on the service, with a sample id each. */
export function namesInUse(ctx: ServiceContext, user: { id: number }, names: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  const visible = visibleWhere('sample', 's', user);
  for (let i = 0; i < names.length; i += 500) {
    const some = names.slice(i, i + 500);
    const rows = ctx.db
      .prepare(
        `SELECT s.name, min(s.id) AS id FROM samples s
         WHERE ${visible.sql} AND s.name IN (${some.map(() => '?').join(',')}) GROUP BY s.name`,
      )
      .all(...visible.params, ...some) as Array<{ name: string; id: number }>;
    for (const r of rows) found.set(r.name, r.id);
  }
  return found;
}

/**
 * Sample names of the sheet that a lane the user sees is still demultiplexing into samples:
 * a lane sent right after another (a watched folder's next run) must meet the first lane's
 * names before its samples exist. Name -> lane id.
 */
export function pendingLaneNames(ctx: ServiceContext, userId: number, names: readonly string[]): Map<string, number> {
  const wanted = new Set(names);
  const found = new Map<string, number>();
  const visible = laneVisibleWhere('l', userId);
  const lanes = ctx.db
    .prepare(`SELECT l.* FROM lanes l WHERE l.status = 'demultiplexing' AND ${visible.sql} ORDER BY l.id`)
    .all(...visible.params) as LaneRow[];
  for (const lane of lanes)
    for (const e of toEntries(laneRows(lane)))
      if (wanted.has(e.sampleName) && !found.has(e.sampleName)) found.set(e.sampleName, lane.id);
  return found;
}
