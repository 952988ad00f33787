/**
 * The mount's refresh cookie: `flow_refresh_token`, as Flow names it, with `Path=/flow/api` so
 * that flowbio's cookie jar sends it to B/token and it never meets `/api`'s own cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TOKEN_SECONDS } from '../../shared/limits';
import type { ServiceContext } from '../context';

export const FLOW_REFRESH_COOKIE = 'flow_refresh_token';
export const FLOW_PREFIX = '/flow/api';

/** The cookie's value, or null. */
export function readFlowCookie(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== FLOW_REFRESH_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

function attributes(ctx: ServiceContext, request: FastifyRequest, maxAge: number): string[] {
  const attrs = ['HttpOnly', 'SameSite=Strict', `Path=${FLOW_PREFIX}`, `Max-Age=${maxAge}`];
  if (request.protocol === 'https' || (ctx.config.publicUrl ?? '').startsWith('https:')) attrs.push('Secure');
  return attrs;
}

/** Sets the cookie (HttpOnly, one year, Secure over https). */
export function setFlowCookie(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.header(
    'set-cookie',
    [`${FLOW_REFRESH_COOKIE}=${token}`, ...attributes(ctx, request, REFRESH_TOKEN_SECONDS)].join('; '),
  );
}

/** Clears the cookie. */
export function clearFlowCookie(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('set-cookie', [`${FLOW_REFRESH_COOKIE}=`, ...attributes(ctx, request, 0)].join('; '));
}
