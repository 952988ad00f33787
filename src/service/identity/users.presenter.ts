/** What the API shows of a user. */
import type { User } from '../../shared/service-api/identity';
import type { UserRow } from '../auth/users.store';

/** A users row as the API shows it (never the password hash). */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    is_admin: row.is_admin === 1,
    can_run_pipelines: row.can_run_pipelines === 1,
    disabled: row.disabled === 1,
    created: row.created,
  };
}
