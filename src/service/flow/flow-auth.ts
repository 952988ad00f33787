/**
 * Who is calling the Flow mount. flowbio's v2 client sends `Authorization: Bearer <token>`;
 * Flow's legacy client and agents send the bare token. A Bearer header has already been
 * verified by the service's own authentication hook (the one shared path, so every credential
 * it accepts, API keys included, works here too); a bare token goes through the same
 * verification function. The result is kept per request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { ApiError, errors } from '../http/api-error';
import { optionalUser, requireUser, verifyAccessToken, type AuthUser } from '../auth/authenticate';

type FlowAuth = { user: AuthUser } | { error: ApiError };

const states = new WeakMap<FastifyRequest, FlowAuth>();

/** Installs the mount's authentication hook (runs after the service's own). */
export function installFlowAuth(scope: FastifyInstance, ctx: ServiceContext): void {
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return;
    const shared = optionalUser(request);
    if (shared) {
      states.set(request, { user: shared });
      return;
    }
    const bare = header.trim();
    if (/^Bearer\s/i.test(bare)) {
      // The shared hook refused it: keep its reason.
      try {
        requireUser(request);
      } catch (err) {
        if (err instanceof ApiError) states.set(request, { error: err });
        else throw err;
      }
      return;
    }
    try {
      states.set(request, { user: await verifyAccessToken(ctx, `Bearer ${bare}`, request.ip) });
    } catch (err) {
      if (err instanceof ApiError) states.set(request, { error: err });
      else throw err;
    }
  });
}

/** The authenticated caller of a mount route; 401 (flowbio then tries /token) otherwise. */
export function flowUser(request: FastifyRequest): AuthUser {
  const state = states.get(request);
  if (!state) throw errors.unauthenticated('Authentication credentials were not provided');
  if ('error' in state) throw state.error;
  return state.user;
}
