/**
 * Signing in to a Flow server (FLOW-WIRE.md §1.1, P1-1 to P1-3) for the core's Session, which
 * speaks Laneway's routes: `POST /login` answers the access token and sets
 * `flow_refresh_token`, which the Session keeps under Laneway's cookie name
 * (`service_refresh_token`, refresh-cookie.ts) and this adapter renames both ways; `GET /token`
 * refreshes (Flow answers 400 for a bad cookie, which the Session must read as a 401: the
 * session ended); bad credentials are Flow's 400, the Session's 401.
 */
import { laneMe } from './flow-shapes';
import { flowMessage, Headers, laneBody, type FlowWire } from './flow-wire';

export const FLOW_REFRESH_COOKIE = 'flow_refresh_token';
/** The cookie name the core's Session reads and sends (session/refresh-cookie.ts, a floor above). */
const REFRESH_COOKIE = 'service_refresh_token';

type Answer = { status: number; body: unknown; headers?: Headers };

/** The value of a cookie in a Cookie header or Set-Cookie lines. */
function cookieValue(lines: string[], name: string): string | null {
  for (const line of lines)
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    }
  return null;
}

/** Flow's rotated cookie as the Set-Cookie the Session reads. */
function asLaneCookie(setCookie: string[]): Headers {
  const headers = new Headers();
  const value = cookieValue(
    setCookie.map((l) => l.split(';')[0] ?? ''),
    FLOW_REFRESH_COOKIE,
  );
  if (value) headers.append('set-cookie', `${REFRESH_COOKIE}=${encodeURIComponent(value)}; HttpOnly`);
  return headers;
}

export class FlowSession {
  constructor(private readonly wire: FlowWire) {}

  async login(body: Record<string, unknown>): Promise<Answer> {
    const res = await this.wire.send('POST', '/login', {
      json: { username: body.username, password: body.password },
      anonymous: true,
    });
    if (res.status === 400 || res.status === 401)
      return { status: 401, body: laneBody(401, res.body, 'INVALID_CREDENTIALS') };
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, res.body) };
    const b = res.body as { token: string; user?: Record<string, unknown> };
    let user = b.user;
    if (!user?.username) {
      const me = await this.wire.send('GET', '/me', {
        headers: { authorization: `Bearer ${b.token}` },
        anonymous: true,
      });
      user = me.body as Record<string, unknown>;
    }
    return {
      status: 200,
      body: { token: b.token, user: laneMe(user) },
      headers: asLaneCookie(res.headers.getSetCookie()),
    };
  }

  async token(cookie: string): Promise<Answer> {
    const refresh = cookieValue([cookie], REFRESH_COOKIE);
    const res = await this.wire.send('GET', '/token', {
      headers: refresh ? { cookie: `${FLOW_REFRESH_COOKIE}=${encodeURIComponent(refresh)}` } : {},
      anonymous: true,
    });
    const token = (res.body as { token?: unknown } | null)?.token;
    if (res.status >= 500) return { status: res.status, body: laneBody(res.status, res.body) };
    if (res.status !== 200 || typeof token !== 'string' || !token)
      return { status: 401, body: laneBody(401, res.body, 'INVALID_REFRESH_TOKEN') };
    return { status: 200, body: { token }, headers: asLaneCookie(res.headers.getSetCookie()) };
  }

  async logout(cookie: string): Promise<Answer> {
    const refresh = cookieValue([cookie], REFRESH_COOKIE);
    const res = await this.wire.send('POST', '/logout', {
      headers: refresh ? { cookie: `${FLOW_REFRESH_COOKIE}=${encodeURIComponent(refresh)}` } : {},
      anonymous: true,
    });
    return { status: res.status < 500 ? 204 : res.status, body: '' };
  }

  async me(authorization: string | undefined): Promise<Answer> {
    const res = authorization
      ? await this.wire.send('GET', '/me', { headers: { authorization }, anonymous: true })
      : await this.wire.send('GET', '/me');
    if (res.status !== 200) return { status: res.status, body: laneBody(res.status, res.body) };
    return { status: 200, body: laneMe(res.body) };
  }

  /** Flow has no health route: any answer from the server (a 401 too) says it is up. */
  async health(): Promise<Answer> {
    const res = await this.wire.send('GET', '/me', { anonymous: true });
    if (res.status >= 500) return { status: res.status, body: { error: flowMessage(res.status, res.body) } };
    return { status: 200, body: { status: 'ok' } };
  }
}
