/**
 * The service's refresh token travels as the `service_refresh_token` cookie. A non-browser
 * client captures it from Set-Cookie and sends it back as a Cookie header; it also reads the
 * expiry of a JWT access token so that it refreshes before the token lapses.
 */
export const REFRESH_COOKIE = 'service_refresh_token';

/** The refresh token set by a response, or null when none was set (or it was cleared). */
export function refreshTokenFromSetCookie(header: string | string[] | undefined): string | null {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of lines) {
    const first = line.split(';')[0] ?? '';
    const eq = first.indexOf('=');
    if (eq < 0 || first.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
    const value = decodeURIComponent(first.slice(eq + 1).trim());
    return value || null;
  }
  return null;
}

/** The Cookie header that carries a refresh token. */
export function refreshCookieHeader(token: string): string {
  return `${REFRESH_COOKIE}=${encodeURIComponent(token)}`;
}

/** Seconds since the epoch at which a JWT expires, or null when it is not a readable JWT. */
export function jwtExpiry(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}
