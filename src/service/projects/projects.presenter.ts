/** The JSON of a project, with ownership and the caller's capabilities. */
import type { Db } from '../db/database';
import type { AuthUser } from '../identity/authenticate';
import { accessFields } from '../policy/policy';
import type { ProjectRow } from './projects.commands';

export const projectSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'description',
    'sample_ids',
    'owner',
    'group_owner',
    'can_edit',
    'can_share',
    'created',
    'updated',
  ],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: 'string' },
    sample_ids: { type: 'array', items: { type: 'integer' } },
    owner: { type: ['string', 'null'] },
    group_owner: { type: ['string', 'null'] },
    can_edit: { type: 'boolean' },
    can_share: { type: 'boolean' },
    created: { type: 'string' },
    updated: { type: 'string' },
  },
} as const;

/** A project as the caller sees it. */
export function presentProject(db: Db, row: ProjectRow, user: AuthUser) {
  const sampleIds = (
    db.prepare('SELECT sample_id FROM project_samples WHERE project_id = ? ORDER BY sample_id').all(row.id) as Array<{
      sample_id: number;
    }>
  ).map((r) => r.sample_id);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sample_ids: sampleIds,
    ...accessFields(db, 'project', row.id, user),
    created: row.created,
    updated: row.updated,
  };
}
