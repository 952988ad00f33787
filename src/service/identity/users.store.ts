/** Queries over the users and refresh_tokens tables. */
import type { Db } from '../db/database';

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
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** One user by username (case-insensitive), or undefined. */
export function userByUsername(db: Db, username: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined;
}

/** One user by e-mail address (case-insensitive), or undefined. */
export function userByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare("SELECT * FROM users WHERE email <> '' AND lower(email) = lower(?)").get(email) as
    UserRow | undefined;
}

/** How many accounts exist. */
export function countUsers(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
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

/** True when the refresh token was issued here for this user and not revoked. */
export function refreshTokenActive(db: Db, jti: string, userId: number): boolean {
  const row = db.prepare('SELECT user_id, revoked FROM refresh_tokens WHERE jti = ?').get(jti) as
    { user_id: number; revoked: string | null } | undefined;
  return !!row && row.user_id === userId && row.revoked === null;
}

/** Revokes one refresh token. */
export function revokeRefreshToken(db: Db, jti: string, at: string): void {
  db.prepare('UPDATE refresh_tokens SET revoked = ? WHERE jti = ? AND revoked IS NULL').run(at, jti);
}

/** Revokes every refresh token of a user (password change, account disabled). */
export function revokeAllRefreshTokens(db: Db, userId: number, at: string): void {
  db.prepare('UPDATE refresh_tokens SET revoked = ? WHERE user_id = ? AND revoked IS NULL').run(at, userId);
}
