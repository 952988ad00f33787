/** Project use cases: create (owned by the caller or a group), update, delete, sample membership. */
import type { NewProjectBody, ProjectChangesBody } from '../../shared/service-api/projects';
import { audit } from '../audit/audit-log';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, dropShares, ownerFor } from '../policy/policy';
import {
  deleteProjectRow,
  insertProject,
  linkSamples,
  projectById,
  touchProject,
  unlinkAllSamples,
  unlinkSample,
  updateProjectRow,
  type ProjectRow,
} from './projects.store';

/** Refuses sample ids the caller cannot see (or that do not exist): 400 VALIDATION_ERROR. */
export function checkSampleIds(ctx: ServiceContext, user: AuthUser, ids: number[]): void {
  const unknown = ids.filter((id) => accessTo(ctx.db, 'sample', id, user) === null);
  if (unknown.length) throw errors.validation({ sample_ids: `unknown samples: ${unknown.join(', ')}` });
}

function iso(ctx: ServiceContext): string {
  return new Date(ctx.clock.now()).toISOString();
}

/** Creates a project owned by the caller, or by `group_owner` when the caller may create there. */
export function createProject(ctx: ServiceContext, user: AuthUser, input: NewProjectBody): ProjectRow {
  const name = input.name.trim();
  if (!name) throw errors.validation({ name: 'must not be blank' });
  const owner = ownerFor(ctx.db, user, input.group_owner);
  const ids = [...new Set(input.sample_ids ?? [])];
  checkSampleIds(ctx, user, ids);
  const now = iso(ctx);
  const id = ctx.db.transaction(() => {
    const projectId = insertProject(ctx.db, {
      name,
      description: input.description ?? '',
      ...owner,
      created: now,
      updated: now,
    });
    linkSamples(ctx.db, projectId, ids);
    audit(ctx, user, 'created', { kind: 'project', id: projectId, name });
    return projectId;
  })();
  return projectById(ctx.db, id)!;
}

/** Updates name, description and (replacing the list) sample_ids. Access is checked by the caller. */
export function updateProject(
  ctx: ServiceContext,
  user: AuthUser,
  id: number,
  changes: ProjectChangesBody,
): ProjectRow {
  const row = projectById(ctx.db, id)!;
  const name = changes.name?.trim();
  if (changes.name !== undefined && !name) throw errors.validation({ name: 'must not be blank' });
  if (changes.sample_ids) checkSampleIds(ctx, user, [...new Set(changes.sample_ids)]);
  ctx.db.transaction(() => {
    updateProjectRow(ctx.db, id, name ?? row.name, changes.description ?? row.description, iso(ctx));
    if (name !== undefined && name !== row.name) {
      audit(ctx, user, 'updated', { kind: 'project', id, name }, { name: { from: row.name, to: name } });
    }
    if (changes.sample_ids) {
      unlinkAllSamples(ctx.db, id);
      linkSamples(ctx.db, id, [...new Set(changes.sample_ids)]);
    }
  })();
  return projectById(ctx.db, id)!;
}

/** Adds samples to a project. */
export function addProjectSamples(ctx: ServiceContext, user: AuthUser, id: number, ids: number[]): ProjectRow {
  checkSampleIds(ctx, user, [...new Set(ids)]);
  ctx.db.transaction(() => {
    linkSamples(ctx.db, id, ids);
    touchProject(ctx.db, id, iso(ctx));
  })();
  return projectById(ctx.db, id)!;
}

/** Removes one sample from a project; NOT_FOUND when it is not in it. */
export function removeProjectSample(ctx: ServiceContext, id: number, sampleId: number): ProjectRow {
  if (!unlinkSample(ctx.db, id, sampleId)) throw errors.notFound(`Sample ${sampleId} in project ${id}`);
  touchProject(ctx.db, id, iso(ctx));
  return projectById(ctx.db, id)!;
}

/** Deletes a project with its shares and sample links. */
export function deleteProject(ctx: ServiceContext, user: AuthUser, id: number): void {
  ctx.db.transaction(() => {
    audit(ctx, user, 'deleted', { kind: 'project', id, name: projectById(ctx.db, id)?.name });
    dropShares(ctx.db, 'project', id);
    deleteProjectRow(ctx.db, id);
  })();
}
