/** Who has access to a resource: its owner, its shares, and every user's effective access. */
import type { ResourcePermissions, UserAccess } from '../../shared/service-api/shares';
import type { Db } from '../db/database';
import type { AuthUser } from '../auth/authenticate';
import { accessFields, accessTo } from '../policy/policy';
import { RESOURCE_KINDS, type ResourceKind } from '../policy/resource-kinds';
import { accessCandidates, sharesOf } from './shares.store';

/** The permissions body of one resource, as the caller sees it. */
export function permissionsOf(db: Db, kind: ResourceKind, id: number, user: AuthUser): ResourcePermissions {
  const shares = sharesOf(db, kind, id);
  const users: UserAccess[] = [];
  for (const u of accessCandidates(db, kind, RESOURCE_KINDS[kind].table, id)) {
    const access = accessTo(db, kind, id, {
      id: u.id,
      username: u.username,
      name: u.name,
      email: u.email,
      isAdmin: false,
      canRunPipelines: false,
    });
    if (access !== null) users.push({ username: u.username, name: u.name, access });
  }
  return { kind, id, ...accessFields(db, kind, id, user), shares, users };
}
