/**
 * Who may talk to the browser-mode host: the per-launch token (query on first load, then an
 * HttpOnly SameSite=Strict cookie, as Jupyter does) and a Host header naming this loopback
 * server (defeats DNS rebinding). WebSocket upgrades must also come from the same origin.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'laneway_token';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

export interface AccessGuard {
  /** The Host values accepted, filled in once the port is known. */
  allowedHosts: Set<string>;
  hostOk(req: IncomingMessage): boolean;
  /** The token presented by the request (query or cookie), if it is the right one. */
  tokenFrom(req: IncomingMessage): 'query' | 'cookie' | null;
  originOk(req: IncomingMessage): boolean;
}

export function createAccessGuard(token: string): AccessGuard {
  const allowedHosts = new Set<string>();
  return {
    allowedHosts,
    hostOk(req) {
      return allowedHosts.has((req.headers.host ?? '').toLowerCase());
    },
    tokenFrom(req) {
      let q: string | null = null;
      try {
        q = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
      } catch {
        // An unparsable request target carries no token; the cookie may still be there.
      }
      if (q !== null && safeEqual(q, token)) return 'query';
      const c = cookieValue(req.headers.cookie, TOKEN_COOKIE);
      if (c !== null && safeEqual(c, token)) return 'cookie';
      return null;
    },
    originOk(req) {
      const origin = req.headers.origin;
      if (!origin) return true;
      try {
        return allowedHosts.has(new URL(origin).host.toLowerCase());
      } catch {
        return false;
      }
    },
  };
}
