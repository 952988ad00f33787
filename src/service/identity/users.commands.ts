/** Account use cases: creating users (setup, admin, CLI), updating them, changing passwords. */
import type { UserChangesBody } from '../../shared/service-api/identity';
import { audit, type AuditActor } from '../audit/audit-log';
import type { ServiceContext, ServiceParts, StoreContext } from '../context';
import { errors, ApiError } from '../http/api-error';
import { hashPassword, verifyPassword } from './passwords';
import { checkNewUserFields } from './new-user-fields';
import { revokeAllRefreshTokens } from '../auth/refresh-tokens';
import {
  countEnabledAdmins,
  countUsers,
  insertUser,
  updateUserRow,
  userByEmail,
  userById,
  userByUsername,
  type UserRow,
} from '../auth/users.store';

/** What creating an account needs: storage and a password pool (the service's, or the CLI's own). */
export type AccountContext = StoreContext & { parts: Pick<ServiceParts, 'passwords'> };

export interface NewUser {
  username: string;
  password: string;
  email: string;
  name: string;
  isAdmin?: boolean;
  canRunPipelines?: boolean;
}

function checkUnique(ctx: StoreContext, username: string, email: string, exceptId = 0): void {
  const fields: Record<string, string> = {};
  const byName = userByUsername(ctx.db, username);
  if (byName && byName.id !== exceptId) fields.username = 'already taken';
  const byEmail = email ? userByEmail(ctx.db, email) : undefined;
  if (byEmail && byEmail.id !== exceptId) fields.email = 'already used by another account';
  if (Object.keys(fields).length) throw errors.validation(fields, 'Username or e-mail address already in use');
}

/**
 * Creates an account and hands it the invitations and notifications waiting for its address.
 * With `onlyIfFirst`, refuses (409) when any account exists: that is POST /api/setup. The audit
 * log names `by` as the creator (null: the shell, `laneway users add`; setup: the new account).
 */
export async function createUser(
  ctx: AccountContext,
  input: NewUser,
  onlyIfFirst = false,
  by: AuditActor | null = null,
): Promise<UserRow> {
  const fields = checkNewUserFields(input);
  if (Object.keys(fields).length) throw errors.validation(fields);
  // Hash outside the transaction: scrypt is slow and must not hold the database.
  const hash = await hashPassword(ctx.parts.passwords, input.password);
  const now = new Date(ctx.clock.now()).toISOString();
  const id = ctx.db.transaction(() => {
    if (onlyIfFirst && countUsers(ctx.db) > 0) {
      throw new ApiError('CONFLICT', 'Setup is done: an account exists already. Log in, or ask an admin.');
    }
    checkUnique(ctx, input.username, input.email);
    const userId = insertUser(ctx.db, {
      username: input.username,
      email: input.email,
      name: input.name,
      password_hash: hash,
      is_admin: !!input.isAdmin,
      can_run_pipelines: !!input.canRunPipelines,
      created: now,
    });
    for (const hook of ctx.hooks.emailAdded) hook(ctx, userId, input.email);
    const actor = onlyIfFirst ? { id: userId, username: input.username } : by;
    audit(ctx, actor, 'created', { kind: 'user', id: userId, name: input.username }, { admin: !!input.isAdmin });
    return userId;
  })();
  return userById(ctx.db, id)!;
}

/** Admin update of an account; disabling or a new password revokes its refresh tokens. */
export async function updateUser(
  ctx: ServiceContext,
  id: number,
  changes: UserChangesBody,
  by: AuditActor | null = null,
): Promise<UserRow> {
  const row = userById(ctx.db, id);
  if (!row) throw errors.notFound('User');
  const hash = changes.password !== undefined ? await hashPassword(ctx.parts.passwords, changes.password) : null;
  const now = new Date(ctx.clock.now()).toISOString();
  ctx.db.transaction(() => {
    if (changes.email !== undefined) checkUnique(ctx, row.username, changes.email, id);
    const losesAdmin = row.is_admin === 1 && row.disabled === 0 && (changes.is_admin === false || changes.disabled);
    if (losesAdmin && countEnabledAdmins(ctx.db) <= 1) {
      throw new ApiError('CONFLICT', 'This is the last enabled administrator: make another admin first');
    }
    const next = {
      email: changes.email ?? row.email,
      name: changes.name ?? row.name,
      password_hash: hash ?? row.password_hash,
      is_admin: changes.is_admin === undefined ? row.is_admin : Number(changes.is_admin),
      can_run_pipelines:
        changes.can_run_pipelines === undefined ? row.can_run_pipelines : Number(changes.can_run_pipelines),
      disabled: changes.disabled === undefined ? row.disabled : Number(changes.disabled),
    };
    updateUserRow(ctx.db, id, next);
    // Every change of rights and credentials is audited: which fields, never the password.
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of ['email', 'name', 'is_admin', 'can_run_pipelines', 'disabled'] as const) {
      if (next[k] !== row[k]) changed[k] = { from: row[k], to: next[k] };
    }
    const self = by?.id === id;
    if (hash && self && Object.keys(changed).length === 0) {
      audit(ctx, by, 'password_changed', { kind: 'user', id, name: row.username });
    } else if (hash || Object.keys(changed).length) {
      audit(
        ctx,
        by,
        'updated',
        { kind: 'user', id, name: row.username },
        { ...changed, ...(hash ? { password_reset: true } : {}) },
      );
    }
    if (hash || next.disabled) revokeAllRefreshTokens(ctx, id, now);
    if (changes.email !== undefined && changes.email !== row.email)
      for (const hook of ctx.hooks.emailAdded) hook(ctx, id, changes.email);
  })();
  // Open sockets re-check the account now (a disabled account or a new password closes them).
  ctx.parts.accountEvents.changed(id);
  return userById(ctx.db, id)!;
}

/** A user's own password change: checks the current one, then revokes every refresh token. */
export async function changeOwnPassword(ctx: ServiceContext, id: number, current: string, next: string) {
  const row = userById(ctx.db, id);
  if (!row) throw errors.unauthenticated();
  if (!(await verifyPassword(ctx.parts.passwords, current, row.password_hash))) {
    throw errors.validation({ current_password: 'does not match' }, 'The current password is wrong');
  }
  return updateUser(ctx, id, { password: next }, { id: row.id, username: row.username });
}
