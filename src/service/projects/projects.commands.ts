/** Project use cases: create (owned by the caller or a group), update, delete, sample membership. */
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../identity/authenticate';
import { accessTo, dropShares, ownerFor } from '../policy/policy';

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
export function projectById(ctx: ServiceContext, id: number): ProjectRow | undefined {
  return ctx.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined;
}

/** Refuses sample ids the caller cannot see (or that do not exist): 400 VALIDATION_ERROR. */
export function checkSampleIds(ctx: ServiceContext, user: AuthUser, ids: number[]): void {
  const unknown = ids.filter((id) => accessTo(ctx.db, 'sample', id, user) === null);
  if (unknown.length) throw errors.validation({ sample_ids: `unknown samples: ${unknown.join(', ')}` });
}

function addSamples(ctx: ServiceContext, projectId: number, ids: number[]): void {
  const insert = ctx.db.prepare('INSERT OR IGNORE INTO project_samples (project_id, sample_id) VALUES (?, ?)');
  for (const id of ids) insert.run(projectId, id);
}

function iso(ctx: ServiceContext): string {
  return new Date(ctx.clock.now()).toISOString();
}

export interface NewProject {
  name: string;
  description?: string;
  sample_ids?: number[];
  group_owner?: string | null;
}

/** Creates a project owned by the caller, or by `group_owner` when the caller may create there. */
export function createProject(ctx: ServiceContext, user: AuthUser, input: NewProject): ProjectRow {
  const name = input.name.trim();
  if (!name) throw errors.validation({ name: 'must not be blank' });
  const owner = ownerFor(ctx.db, user, input.group_owner);
  const ids = [...new Set(input.sample_ids ?? [])];
  checkSampleIds(ctx, user, ids);
  const now = iso(ctx);
  const id = ctx.db.transaction(() => {
    const projectId = Number(
      ctx.db
        .prepare(
          `INSERT INTO projects (name, description, owner_user_id, owner_group_id, created, updated)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(name, input.description ?? '', owner.owner_user_id, owner.owner_group_id, now, now).lastInsertRowid,
    );
    addSamples(ctx, projectId, ids);
    audit(ctx, user, 'created', { kind: 'project', id: projectId, name });
    return projectId;
  })();
  return projectById(ctx, id)!;
}

export interface ProjectChanges {
  name?: string;
  description?: string;
  sample_ids?: number[];
}

/** Updates name, description and (replacing the list) sample_ids. Access is checked by the caller. */
export function updateProject(ctx: ServiceContext, user: AuthUser, id: number, changes: ProjectChanges): ProjectRow {
  const row = projectById(ctx, id)!;
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw errors.validation({ name: 'must not be blank' });
  if (changes.sample_ids) checkSampleIds(ctx, user, [...new Set(changes.sample_ids)]);
  ctx.db.transaction(() => {
    ctx.db
      .prepare('UPDATE projects SET name = ?, description = ?, updated = ? WHERE id = ?')
      .run(name ?? row.name, changes.description ?? row.description, iso(ctx), id);
    if (changes.sample_ids) {
      ctx.db.prepare('DELETE FROM project_samples WHERE project_id = ?').run(id);
      addSamples(ctx, id, [...new Set(changes.sample_ids)]);
    }
  })();
  return projectById(ctx, id)!;
}

/** Adds samples to a project. */
export function addProjectSamples(ctx: ServiceContext, user: AuthUser, id: number, ids: number[]): ProjectRow {
  checkSampleIds(ctx, user, [...new Set(ids)]);
  ctx.db.transaction(() => {
    addSamples(ctx, id, ids);
    ctx.db.prepare('UPDATE projects SET updated = ? WHERE id = ?').run(iso(ctx), id);
  })();
  return projectById(ctx, id)!;
}

/** Removes one sample from a project; NOT_FOUND when it is not in it. */
export function removeProjectSample(ctx: ServiceContext, id: number, sampleId: number): ProjectRow {
  const removed = ctx.db
    .prepare('DELETE FROM project_samples WHERE project_id = ? AND sample_id = ?')
    .run(id, sampleId).changes;
  if (!removed) throw errors.notFound(`Sample ${sampleId} in project ${id}`);
  ctx.db.prepare('UPDATE projects SET updated = ? WHERE id = ?').run(iso(ctx), id);
  return projectById(ctx, id)!;
}

/** Deletes a project with its shares and sample links. */
export function deleteProject(ctx: ServiceContext, user: AuthUser, id: number): void {
  ctx.db.transaction(() => {
    audit(ctx, user, 'deleted', { kind: 'project', id, name: projectById(ctx, id)?.name });
    dropShares(ctx.db, 'project', id);
    ctx.db.prepare('DELETE FROM projects WHERE id = ?').run(id);
  })();
}
