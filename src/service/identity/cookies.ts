/** The refresh-token cookie: reading it from a request and writing or clearing it on a reply. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TOKEN_SECONDS } from '../../shared/limits';
import type { ServiceContext } from '../context';

export const REFRESH_COOKIE = 'service_refresh_token';

/** The refresh cookie's value, or null when absent. */
export function readRefreshCookie(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

function secure(ctx: ServiceContext, request: FastifyRequest): boolean {
  return request.protocol === 'https' || (ctx.config.publicUrl ?? '').startsWith('https:');
}

/** Sets the refresh cookie: HttpOnly, SameSite=Strict, Path=/api, one year, Secure over https. */
export function setRefreshCookie(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  const attrs = [
    `${REFRESH_COOKIE}=${token}`,
    'HttpOnly',
    'SameSite=Strict',
    'Path=/api',
    `Max-Age=${REFRESH_TOKEN_SECONDS}`,
  ];
  if (secure(ctx, request)) attrs.push('Secure');
  void reply.header('set-cookie', attrs.join('; '));
}

/** Clears the refresh cookie. */
export function clearRefreshCookie(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply): void {
  const attrs = [`${REFRESH_COOKIE}=`, 'HttpOnly', 'SameSite=Strict', 'Path=/api', 'Max-Age=0'];
  if (secure(ctx, request)) attrs.push('Secure');
  void reply.header('set-cookie', attrs.join('; '));
}
