/**
 * What "with its reads and results" means for each kind, as rows: a project's samples, a
 * sample's read files and the records attached to it, an execution's samples and outputs, and
 * the executions run on a project's samples.
 */
import type { Db } from '../db/database';

const ids = (db: Db, sql: string, ...args: unknown[]) =>
  (db.prepare(sql).all(...args) as Array<{ id: number | null }>).flatMap((r) => (r.id === null ? [] : [r.id]));

export const projectSampleIds = (db: Db, id: number) =>
  ids(db, 'SELECT sample_id AS id FROM project_samples WHERE project_id = ?', id);

/** The sample's reads, then every record attached to it (per-sample results). */
export const sampleDataIds = (db: Db, id: number) => [
  ...ids(
    db,
    'SELECT read1_id AS id FROM samples WHERE id = ? UNION ALL SELECT read2_id FROM samples WHERE id = ?',
    id,
    id,
  ),
  ...ids(db, 'SELECT id FROM data_files WHERE sample_id = ?', id),
];

/** The execution's samples that still exist (one deleted since the run is nothing to share). */
export const executionSampleIdsOf = (db: Db, id: number) =>
  ids(
    db,
    `SELECT es.sample_id AS id FROM execution_samples es JOIN samples s ON s.id = es.sample_id
      WHERE es.execution_id = ? ORDER BY es.position`,
    id,
  );

export const executionOutputIds = (db: Db, id: number) =>
  ids(db, 'SELECT id FROM data_files WHERE execution_id = ?', id);

/** Executions that ran on any of the samples. */
export function executionsOnSamples(db: Db, sampleIds: number[]): number[] {
  if (sampleIds.length === 0) return [];
  return ids(
    db,
    `SELECT DISTINCT execution_id AS id FROM execution_samples WHERE sample_id IN (${sampleIds.map(() => '?').join(',')})`,
    ...sampleIds,
  );
}
