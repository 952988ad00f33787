/**
 * The identity behind one GraphQL WebSocket, re-checked as REST checks every request: before
 * each operation and each subscription event the account is read again (disabled, rights, a new
 * password), and the credential it was opened with must still hold (an access token until its
 * `exp`, unless the client re-authenticates in-band with the `reauthenticate` mutation). A
 * failed check closes the socket with 4403 and a reason; disabling an account or changing its
 * password closes its sockets at once (account-events). See docs/service/graphql-sockets.md.
 */
import type WebSocket from 'ws';
import type { ServiceContext } from '../context';
import { errors } from '../http/api-error';
import { apiKeyProblem } from '../auth/api-key-verify';
import { apiKeyById } from '../auth/api-keys.store';
import { authenticateCredential, toAuthUser, type AuthUser } from '../auth/authenticate';
import { userById } from '../auth/users.store';

/** Rows read for one event, shared by every socket that receives it (50 dashboards, 1 read). */
const readsFor = new WeakMap<object, Map<string, unknown>>();
function readOnce<T>(event: object | undefined, key: string, read: () => T): T {
  if (!event) return read();
  let reads = readsFor.get(event);
  if (!reads) readsFor.set(event, (reads = new Map()));
  if (!reads.has(key)) reads.set(key, read());
  return reads.get(key) as T;
}

/** graphql-ws's Forbidden: its clients reconnect (with fresh connectionParams) after it. */
export const SESSION_ENDED_CODE = 4403;

export interface SocketSession {
  readonly socket: WebSocket;
  userId: number;
  /** The password hash when the socket authenticated: another one means a new password. */
  passwordHash: string;
  /** When the credential stops holding (ms); null: never by time. */
  expiresAt: number | null;
  /** The API key it authenticated with (checked for revocation), or null for an access token. */
  apiKeyId: number | null;
  timer: ReturnType<typeof setTimeout> | null;
  ended: boolean;
}

/** Open sessions of one service, by user id, so an account change reaches its sockets. */
export class SocketSessions {
  private readonly byUser = new Map<number, Set<SocketSession>>();
  private readonly stopListening: () => void;

  constructor(private readonly ctx: ServiceContext) {
    this.stopListening = ctx.parts.accountEvents.onChanged((userId) => {
      for (const session of [...(this.byUser.get(userId) ?? [])]) this.check(session);
    });
  }

  /** Authenticates a new socket from its connectionParams.authorization; throws UNAUTHENTICATED. */
  async open(socket: WebSocket, authorization: unknown, address: string): Promise<SocketSession> {
    if (typeof authorization !== 'string') throw errors.unauthenticated('connectionParams.authorization is required');
    const credential = await authenticateCredential(this.ctx, authorization, address);
    const row = userById(this.ctx.db, credential.user.id)!;
    const session: SocketSession = {
      socket,
      userId: row.id,
      passwordHash: row.password_hash,
      expiresAt: credential.expiresAt,
      apiKeyId: credential.apiKeyId,
      timer: null,
      ended: false,
    };
    let set = this.byUser.get(row.id);
    if (!set) this.byUser.set(row.id, (set = new Set()));
    set.add(session);
    this.arm(session);
    return session;
  }

  /**
   * The session's user as of now, or the end of the session: closes the socket (4403 with the
   * reason) and throws UNAUTHENTICATED.
   */
  user(session: SocketSession, event?: object): AuthUser {
    const user = this.check(session, event);
    if (!user) throw errors.unauthenticated('The connection has ended: authenticate again');
    return user;
  }

  /**
   * In-band re-authentication: a fresh credential of the same account extends the session to
   * the new credential's expiry. Another account's credential is refused (and ends nothing).
   */
  async reauthenticate(
    session: SocketSession,
    authorization: string,
    address: string,
  ): Promise<{ expiresAt: number | null }> {
    this.user(session);
    const credential = await authenticateCredential(this.ctx, authorization, address);
    if (credential.user.id !== session.userId) {
      throw errors.validation({ token: 'belongs to another account' }, 'A connection cannot change its account');
    }
    session.expiresAt = credential.expiresAt;
    session.apiKeyId = credential.apiKeyId;
    this.arm(session);
    return { expiresAt: session.expiresAt };
  }

  /** Forgets a closed socket. */
  closed(session: SocketSession): void {
    session.ended = true;
    if (session.timer) clearTimeout(session.timer);
    session.timer = null;
    const set = this.byUser.get(session.userId);
    set?.delete(session);
    if (set?.size === 0) this.byUser.delete(session.userId);
  }

  /** Stops listening for account changes (service shutdown). */
  dispose(): void {
    this.stopListening();
  }

  private check(session: SocketSession, event?: object): AuthUser | null {
    if (session.ended) return null;
    const row = readOnce(event, `user ${session.userId}`, () => userById(this.ctx.db, session.userId));
    let reason: string | null = null;
    if (!row || row.disabled) reason = 'Account disabled';
    else if (row.password_hash !== session.passwordHash) reason = 'Password changed';
    else if (session.apiKeyId !== null) {
      const keyId = session.apiKeyId;
      const key = readOnce(event, `key ${keyId}`, () => apiKeyById(this.ctx.db, keyId));
      const problem = key ? apiKeyProblem(this.ctx, key, row) : 'revoked';
      if (problem !== null) reason = `API key ${problem}`;
    } else if (session.expiresAt !== null && this.ctx.clock.now() >= session.expiresAt) reason = 'Access token expired';
    if (reason === null) return toAuthUser(row!);
    this.end(session, reason);
    return null;
  }

  private end(session: SocketSession, reason: string): void {
    this.closed(session);
    session.socket.close(SESSION_ENDED_CODE, reason);
  }

  /** A timer for the credential's expiry, on the service clock's reading of now. */
  private arm(session: SocketSession): void {
    if (session.timer) clearTimeout(session.timer);
    session.timer = null;
    if (session.expiresAt === null) return;
    const delay = Math.max(0, session.expiresAt - this.ctx.clock.now());
    // setTimeout holds at most ~24.8 days; a later expiry is caught by the per-request check.
    if (delay > 2 ** 31 - 1) return;
    session.timer = setTimeout(() => this.check(session), delay);
    session.timer.unref();
  }
}
