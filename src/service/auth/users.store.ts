/** Queries over the users and refresh_tokens tables, and a user's memberships for /api/me. */
import type { PageOf, PageQuery } from '../../shared/service-api/page';
import type { Db } from '../db/database';
import { selectPage } from '../db/select-page';
import { prepared } from '../db/statements';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  name: string;
  password_hash: string;
  is_admin: number;
  can_run_pipelines: number;
  disabled: number;
  created: string;
}

/** One user by id, or undefined. */
export function userById(db: Db, id: number): UserRow | undefined {
  return prepared(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** One user by username (case-insensitive), or undefined. Prepared once: every sign-in, bogus ones included, asks. */
export function userByUsername(db: Db, username: string): UserRow | undefined {
  return prepared(db, 'SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
}

/** One user by e-mail address (case-insensitive), or undefined. */
export function userByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare("SELECT * FROM users WHERE email <> '' AND lower(email) = lower(?)").get(email) as
    UserRow | undefined;
}

/** How many accounts exist. */
export function countUsers(db: Db): number {
  // Prepared once: GET /api/health asks it on every request until the first account exists.
  return (prepared(db, 'SELECT count(*) AS n FROM users').get() as { n: number }).n;
}

/** How many enabled administrators exist. */
export function countEnabledAdmins(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM users WHERE is_admin = 1 AND disabled = 0').get() as { n: number }).n;
}

/** One page of every account, oldest first. */
export function usersPage(db: Db, q: PageQuery): PageOf<UserRow> {
  return selectPage<UserRow>(db, { from: 'users', orderBy: 'id' }, q);
}

/** Enabled accounts whose name or username contains `text`, by username (the Flow mount's /users/search). */
export function searchUsers(db: Db, text: string, q: PageQuery): PageOf<Pick<UserRow, 'id' | 'username' | 'name'>> {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return selectPage<Pick<UserRow, 'id' | 'username' | 'name'>>(
    db,
    {
      from: 'users',
      where: { sql: "disabled = 0 AND (name LIKE ? ESCAPE '\\' OR username LIKE ? ESCAPE '\\')", params: [like, like] },
      orderBy: 'username',
      columns: 'id, username, name',
    },
    q,
  );
}

export interface NewUserRow {
  username: string;
  email: string;
  name: string;
  password_hash: string;
  is_admin: boolean;
  can_run_pipelines: boolean;
  created: string;
}

/** Inserts an enabled account; returns its id. */
export function insertUser(db: Db, u: NewUserRow): number {
  const result = db
    .prepare(
      `INSERT INTO users (username, email, name, password_hash, is_admin, can_run_pipelines, disabled, created)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
    )
    .run(u.username, u.email, u.name, u.password_hash, u.is_admin ? 1 : 0, u.can_run_pipelines ? 1 : 0, u.created);
  return Number(result.lastInsertRowid);
}

/** Writes an account's changeable columns. */
export function updateUserRow(
  db: Db,
  id: number,
  next: Pick<UserRow, 'email' | 'name' | 'password_hash' | 'is_admin' | 'can_run_pipelines' | 'disabled'>,
): void {
  db.prepare(
    `UPDATE users SET email = @email, name = @name, password_hash = @password_hash, is_admin = @is_admin,
     can_run_pipelines = @can_run_pipelines, disabled = @disabled WHERE id = @id`,
  ).run({ ...next, id });
}

export interface UserMembershipRow {
  slug: string;
  name: string;
  role: string;
  permission: string;
  invited_by: string | null;
}

/** Every membership of a user (invitations included) with its group and inviter, by group name. */
export function membershipsOfUser(db: Db, userId: number): UserMembershipRow[] {
  return db
    .prepare(
      `SELECT g.slug, g.name, m.role, m.permission, u.username AS invited_by
       FROM memberships m JOIN groups g ON g.id = m.group_id LEFT JOIN users u ON u.id = m.invited_by
       WHERE m.user_id = ? ORDER BY g.name, g.slug`,
    )
    .all(userId) as UserMembershipRow[];
}

/** Records an issued refresh token so it can be revoked by jti. */
export function recordRefreshToken(db: Db, jti: string, userId: number, issued: string, expires: string): void {
  db.prepare('INSERT INTO refresh_tokens (jti, user_id, issued, expires) VALUES (?, ?, ?, ?)').run(
    jti,
    userId,
    issued,
    expires,
  );
}

/** The stored token's state: active for this user, revoked or another's (false), or not in the table (null). */
export function storedRefreshTokenState(db: Db, jti: string, userId: number): boolean | null {
  const row = db.prepare('SELECT user_id, revoked FROM refresh_tokens WHERE jti = ?').get(jti) as
    { user_id: number; revoked: string | null } | undefined;
  if (!row) return null;
  return row.user_id === userId && row.revoked === null;
}

/** Revokes stored refresh tokens: one by jti, or every one of a user. */
export function revokeStoredRefreshTokens(db: Db, match: { jti: string } | { userId: number }, at: string): void {
  if ('jti' in match) {
    db.prepare('UPDATE refresh_tokens SET revoked = ? WHERE jti = ? AND revoked IS NULL').run(at, match.jti);
  } else {
    db.prepare('UPDATE refresh_tokens SET revoked = ? WHERE user_id = ? AND revoked IS NULL').run(at, match.userId);
  }
}
