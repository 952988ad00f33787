/**
 * The queries behind on-demand reports: a project's or a lane's samples, and the outputs of
 * completed executions on those samples that MultiQC can read. Access is decided by the
 * caller (reports.commands.ts) through the policy; these only read rows.
 */
import type { Db } from '../db/database';
import { laneVisibleWhere } from '../lanes/lanes.store';

export interface ReportSampleRow {
  id: number;
  name: string;
}

export interface ReportOutputRow {
  id: number;
  filename: string;
  data_type: string;
  size: number;
  sample_id: number;
  execution_id: number;
  pipeline_name: string;
}

/** The samples of a project, by id. */
export function projectSamples(db: Db, projectId: number): ReportSampleRow[] {
  return db
    .prepare<[number], ReportSampleRow>(
      `SELECT s.id, s.name FROM project_samples ps JOIN samples s ON s.id = ps.sample_id
       WHERE ps.project_id = ? ORDER BY s.id`,
    )
    .all(projectId);
}

/** The lane's name when the user may see the lane (its owner or a member of its group). */
export function visibleLaneName(db: Db, laneId: number, userId: number): string | undefined {
  const visible = laneVisibleWhere('l', userId);
  const row = db
    .prepare(`SELECT l.name FROM lanes l WHERE l.id = ? AND ${visible.sql}`)
    .get(laneId, ...visible.params) as { name: string } | undefined;
  return row?.name;
}

/** The samples demultiplexed from (or attached to) a lane, by id. */
/** The samples with these ids that exist, in id order (who may see them is the caller's check). */
export function samplesByIds(db: Db, ids: readonly number[]): ReportSampleRow[] {
  if (!ids.length) return [];
  return db
    .prepare<number[], ReportSampleRow>(
      `SELECT id, name FROM samples WHERE id IN (${ids.map(() => '?').join(',')}) ORDER BY id`,
    )
    .all(...ids);
}

export function laneSamples(db: Db, laneId: number): ReportSampleRow[] {
  return db
    .prepare<[number], ReportSampleRow>('SELECT id, name FROM samples WHERE lane_id = ? ORDER BY id')
    .all(laneId);
}

/**
 * Outputs of completed executions tied to these samples with one of `dataTypes`, newest
 * execution first.
 */
export function sampleOutputs(db: Db, sampleIds: number[], dataTypes: readonly string[]): ReportOutputRow[] {
  if (sampleIds.length === 0) return [];
  const samples = sampleIds.map(() => '?').join(', ');
  const types = dataTypes.map(() => '?').join(', ');
  return db
    .prepare(
      `SELECT d.id, d.filename, d.data_type, d.size, d.sample_id, d.execution_id, e.pipeline_name
       FROM data_files d JOIN executions e ON e.id = d.execution_id
       WHERE d.source = 'execution' AND e.status = 'completed'
         AND d.sample_id IN (${samples}) AND d.data_type IN (${types})
       ORDER BY e.id DESC, d.id`,
    )
    .all(...sampleIds, ...dataTypes) as ReportOutputRow[];
}
