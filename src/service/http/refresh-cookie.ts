/**
 * A refresh-token cookie on one path: read from a request, set or cleared on a reply. `/api`
 * and the Flow mount each have one (identity/cookies.ts, flow/flow-cookie.ts), with their own
 * name and path so that neither meets the other's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFRESH_TOKEN_SECONDS } from '../../shared/limits';
import type { StoreContext } from '../context';

export interface RefreshCookie {
  /** The cookie's value, or null when absent. */
  read(request: FastifyRequest): string | null;
  /** Sets it: HttpOnly, SameSite=Strict, on its path, one year, Secure over https. */
  set(ctx: StoreContext, request: FastifyRequest, reply: FastifyReply, token: string): void;
  /** Clears it. */
  clear(ctx: StoreContext, request: FastifyRequest, reply: FastifyReply): void;
}

export function refreshCookie(name: string, path: string): RefreshCookie {
  const write = (ctx: StoreContext, request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) => {
    const attrs = [`${name}=${value}`, 'HttpOnly', 'SameSite=Strict', `Path=${path}`, `Max-Age=${maxAge}`];
    if (request.protocol === 'https' || (ctx.config.publicUrl ?? '').startsWith('https:')) attrs.push('Secure');
    void reply.header('set-cookie', attrs.join('; '));
  };
  return {
    read(request) {
      for (const part of (request.headers.cookie ?? '').split(';')) {
        const eq = part.indexOf('=');
        if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
        const raw = part.slice(eq + 1).trim();
        try {
          return decodeURIComponent(raw);
        } catch {
          return raw;
        }
      }
      return null;
    },
    set: (ctx, request, reply, token) => write(ctx, request, reply, token, REFRESH_TOKEN_SECONDS),
    clear: (ctx, request, reply) => write(ctx, request, reply, '', 0),
  };
}
