/** Queries over projects and their sample links. */
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';
import { visibleWhere } from '../policy/policy';

export interface ProjectRow {
  id: number;
  name: string;
  description: string;
  owner_user_id: number | null;
  owner_group_id: number | null;
  created: string;
  updated: string;
}

/** One project row (no access check), or undefined. */
export function projectById(db: Db, id: number): ProjectRow | undefined {
  return db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined;
}

/** One page of the projects the user can see, newest first. */
export function visibleProjectsPage(db: Db, user: { id: number }, q: PageQuery): PageOf<ProjectRow> {
  return selectPage<ProjectRow>(
    db,
    { from: 'projects p', where: visibleWhere('project', 'p', user), orderBy: 'p.id DESC', columns: 'p.*' },
    q,
  );
}

/**
 * The ids of a project's samples that the user may see, ascending (issue 24: the ids of samples
 * the caller cannot see are not theirs to know; following one would answer 404 anyway).
 */
export function visibleSampleIdsOf(db: Db, projectId: number, user: { id: number }): number[] {
  const visible = visibleWhere('sample', 's', user);
  const rows = db
    .prepare(
      `SELECT s.id FROM project_samples ps JOIN samples s ON s.id = ps.sample_id
       WHERE ps.project_id = ? AND ${visible.sql} ORDER BY s.id`,
    )
    .all(projectId, ...visible.params) as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

/**
 * The project's samples by name (issue 20: a viewer sees the names its owner sees: they are part
 * of the project), each with its id only when the user may see that sample (issue 24).
 */
export function sampleNamesOf(db: Db, projectId: number, user: { id: number }): Array<{ id?: number; name: string }> {
  const visible = new Set(visibleSampleIdsOf(db, projectId, user));
  const rows = db
    .prepare(
      `SELECT s.id, s.name FROM project_samples ps JOIN samples s ON s.id = ps.sample_id
       WHERE ps.project_id = ? ORDER BY s.id`,
    )
    .all(projectId) as Array<{ id: number; name: string }>;
  return rows.map((r) => (visible.has(r.id) ? r : { name: r.name }));
}

/** Inserts a project; returns its id. */
export function insertProject(db: Db, row: Omit<ProjectRow, 'id'>): number {
  return Number(
    db
      .prepare(
        `INSERT INTO projects (name, description, owner_user_id, owner_group_id, created, updated)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(row.name, row.description, row.owner_user_id, row.owner_group_id, row.created, row.updated).lastInsertRowid,
  );
}

/** Writes a project's name and description and when it changed. */
export function updateProjectRow(db: Db, id: number, name: string, description: string, updated: string): void {
  db.prepare('UPDATE projects SET name = ?, description = ?, updated = ? WHERE id = ?').run(
    name,
    description,
    updated,
    id,
  );
}

/** Marks a project changed. */
export function touchProject(db: Db, id: number, updated: string): void {
  db.prepare('UPDATE projects SET updated = ? WHERE id = ?').run(updated, id);
}

/** Links samples to a project (links it has already stay). */
export function linkSamples(db: Db, projectId: number, sampleIds: number[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO project_samples (project_id, sample_id) VALUES (?, ?)');
  for (const id of sampleIds) insert.run(projectId, id);
}

/** Removes every sample link of a project. */
export function unlinkAllSamples(db: Db, projectId: number): void {
  db.prepare('DELETE FROM project_samples WHERE project_id = ?').run(projectId);
}

/** Removes one sample link; returns whether the sample was in the project. */
export function unlinkSample(db: Db, projectId: number, sampleId: number): boolean {
  return (
    db.prepare('DELETE FROM project_samples WHERE project_id = ? AND sample_id = ?').run(projectId, sampleId).changes >
    0
  );
}

/** Deletes a project row (its sample links go by foreign key). */
export function deleteProjectRow(db: Db, id: number): void {
  db.prepare('DELETE FROM projects WHERE id = ?').run(id);
}
