/**
 * Who is calling: an onRequest hook verifies the Bearer access token once per request and
 * keeps the result on the request; routes ask `requireUser(request)` synchronously.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { looksLikeApiKey, verifyApiKey } from './api-key-verify';
import { TokenError, verifyToken } from './tokens';
import { userById, type UserRow } from './users.store';

export interface AuthUser {
  id: number;
  username: string;
  email: string;
  name: string;
  isAdmin: boolean;
  canRunPipelines: boolean;
}

type AuthState = { credential: Credential } | { error: ApiError };

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
  /** The API key presented, or null for an access token. */
  apiKeyId: number | null;
}

/**
 * The one authenticate path: verifies a credential ("Bearer <token>" or the bare token) and
 * loads its live, enabled user. Every mount (REST, GraphQL over HTTP and WebSocket) calls it.
 */
export async function authenticateCredential(
  ctx: ServiceContext,
  token: string,
  /** The caller's address (request.ip): refused API keys are limited per address. */
  address: string,
): Promise<Credential> {
  const bare = token.replace(/^Bearer\s+/i, '').trim();
  if (!bare) throw errors.unauthenticated('Missing access token');
  if (looksLikeApiKey(bare)) {
    const { row, user } = verifyApiKey(ctx, bare, address);
    return {
      user: toAuthUser(user),
      expiresAt: row.expires === null ? null : Date.parse(row.expires),
      apiKeyId: row.id,
    };
  }
  let claims: { userId: number; exp: number };
  try {
    claims = await verifyToken(ctx, bare, 'access');
  } catch (err) {
    if (err instanceof TokenError) throw errors.unauthenticated(`Access token refused (${err.message})`);
    throw err;
  }
  const row = userById(ctx.db, claims.userId);
  if (!row || row.disabled) throw errors.unauthenticated('Access token refused (account unavailable)');
  return { user: toAuthUser(row), expiresAt: claims.exp * 1000, apiKeyId: null };
}

/** Verifies an access token or API key ("Bearer <token>" or the bare one) and loads its live, enabled user. */
export async function verifyAccessToken(ctx: ServiceContext, token: string, address: string): Promise<AuthUser> {
  return (await authenticateCredential(ctx, token, address)).user;
}

/**
 * Installs the hook that authenticates every request carrying an Authorization header; must
 * come before every module whose routes call requireUser.
 */
export function installAuthentication(app: FastifyInstance, ctx: ServiceContext): void {
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return;
    if (!/^Bearer\s+\S+$/i.test(header)) {
      states.set(request, {
        error: errors.unauthenticated('Authorization header must be "Bearer <access token or API key>"'),
      });
      return;
    }
    try {
      states.set(request, { credential: await authenticateCredential(ctx, header, request.ip) });
    } catch (err) {
      if (err instanceof ApiError) states.set(request, { error: err });
      else throw err;
    }
  });
}

/** The authenticated caller; throws UNAUTHENTICATED when the request has no valid access token. */
export function requireUser(request: FastifyRequest): AuthUser {
  const state = states.get(request);
  if (!state) throw errors.unauthenticated();
  // UNAUTHENTICATED with its reason, or RATE_LIMITED for an address refused too often.
  if ('error' in state) throw state.error;
  return state.credential.user;
}

/** The credential the request authenticated with (requireUser first). */
export function requireCredential(request: FastifyRequest): Credential {
  requireUser(request);
  return (states.get(request) as { credential: Credential }).credential;
}

/** The caller when authenticated, otherwise null (for routes that also serve anonymous callers). */
export function optionalUser(request: FastifyRequest): AuthUser | null {
  const state = states.get(request);
  return state && 'credential' in state ? state.credential.user : null;
}

/** Throws PERMISSION_DENIED unless the caller is a service administrator. */
export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw errors.permissionDenied('Only an administrator can do this');
  return user;
}
