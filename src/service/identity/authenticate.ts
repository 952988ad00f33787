/**
 * Who is calling: an onRequest hook verifies the Bearer access token once per request and
 * keeps the result on the request; routes ask `requireUser(request)` synchronously.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { signingSecret, TokenError, verifyToken } from './tokens';
import { userById, type UserRow } from './users.store';

export interface AuthUser {
  id: number;
  username: string;
  email: string;
  name: string;
  isAdmin: boolean;
  canRunPipelines: boolean;
}

type AuthState = { user: AuthUser } | { error: string };

const states = new WeakMap<FastifyRequest, AuthState>();

/** The AuthUser view of a users row. */
export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    isAdmin: row.is_admin === 1,
    canRunPipelines: row.can_run_pipelines === 1,
  };
}

/** Who a credential stands for, and until when (ms since epoch; null: until revoked). */
export interface Credential {
  user: AuthUser;
  expiresAt: number | null;
}

/**
 * The one authenticate path: verifies a credential ("Bearer <token>" or the bare token) and
 * loads its live, enabled user. Every mount (REST, GraphQL over HTTP and WebSocket) calls it.
 */
export async function authenticateCredential(ctx: ServiceContext, token: string): Promise<Credential> {
  const bare = token.replace(/^Bearer\s+/i, '').trim();
  if (!bare) throw errors.unauthenticated('Missing access token');
  let claims: { userId: number; exp: number };
  try {
    claims = await verifyToken(ctx, bare, 'access');
  } catch (err) {
    if (err instanceof TokenError) throw errors.unauthenticated(`Access token refused (${err.message})`);
    throw err;
  }
  const row = userById(ctx.db, claims.userId);
  if (!row || row.disabled) throw errors.unauthenticated('Access token refused (account unavailable)');
  return { user: toAuthUser(row), expiresAt: claims.exp * 1000 };
}

/** Verifies an access token ("Bearer <token>" or the bare token) and loads its live, enabled user. */
export async function verifyAccessToken(ctx: ServiceContext, token: string): Promise<AuthUser> {
  return (await authenticateCredential(ctx, token)).user;
}

/**
 * Installs the hook that authenticates every request carrying an Authorization header; must
 * come before every module whose routes call requireUser.
 */
export function installAuthentication(app: FastifyInstance, ctx: ServiceContext): void {
  // Create the installation's secret at start, not on the first login.
  signingSecret(ctx);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return;
    if (!/^Bearer\s+\S+$/i.test(header)) {
      states.set(request, { error: 'Authorization header must be "Bearer <access token>"' });
      return;
    }
    try {
      states.set(request, { user: await verifyAccessToken(ctx, header) });
    } catch (err) {
      if (err instanceof ApiError) states.set(request, { error: err.message });
      else throw err;
    }
  });
}

/** The authenticated caller; throws UNAUTHENTICATED when the request has no valid access token. */
export function requireUser(request: FastifyRequest): AuthUser {
  const state = states.get(request);
  if (!state) throw errors.unauthenticated();
  if ('error' in state) throw errors.unauthenticated(state.error);
  return state.user;
}

/** The caller when authenticated, otherwise null (for routes that also serve anonymous callers). */
export function optionalUser(request: FastifyRequest): AuthUser | null {
  const state = states.get(request);
  return state && 'user' in state ? state.user : null;
}

/** Throws PERMISSION_DENIED unless the caller is a service administrator. */
export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw errors.permissionDenied('Only an administrator can do this');
  return user;
}
