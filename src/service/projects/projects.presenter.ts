/** The JSON of a project, with ownership and the caller's capabilities. */
import type { Project } from '../../shared/service-api/projects';
import type { Db } from '../db/database';
import type { AuthUser } from '../auth/authenticate';
import { accessFields } from '../policy/policy';
import { sampleNamesOf, visibleSampleIdsOf, type ProjectRow } from './projects.store';

/** A project as the caller sees it. */
export function presentProject(db: Db, row: ProjectRow, user: AuthUser): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sample_ids: visibleSampleIdsOf(db, row.id, user),
    samples: sampleNamesOf(db, row.id, user),
    ...accessFields(db, 'project', row.id, user),
    created: row.created,
    updated: row.updated,
  };
}
