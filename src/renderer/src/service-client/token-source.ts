/**
 * The access token for the renderer's own service calls, asked of the desktop core (which
 * holds the refresh token) and cached until shortly before it expires.
 */
import type { DesktopApi } from '../../../shared/desktop-api/client';

export interface TokenSource {
  /** A valid token, or null when signed out; `fresh` skips the cache (after a 401). */
  token(fresh: boolean): Promise<string | null>;
  /** The active profile's service origin as the core last reported it. */
  baseUrl(): string | null;
  /** Drops the cached token and the address it came with (sign-out, profile switch, a restart). */
  clear(): void;
}

const MARGIN_MS = 60_000;

/** Creates the source over the desktop API's `auth:access-token`. */
export function createTokenSource(api: DesktopApi): TokenSource {
  let cached: { token: string; expires: number; base: string } | null = null;
  let base: string | null = null;
  let inflight: Promise<string | null> | null = null;

  const fetchToken = async (): Promise<string | null> => {
    try {
      const t = await api.auth.accessToken();
      base = t.api_url.replace(/\/api\/?$/, '');
      cached = { token: t.token, expires: Date.parse(t.expires_at), base };
      return t.token;
    } catch (err) {
      cached = null;
      if ((err as { code?: string }).code === 'NOT_SIGNED_IN') return null;
      throw err;
    }
  };

  return {
    async token(fresh) {
      if (!fresh && cached && cached.expires - MARGIN_MS > Date.now()) return cached.token;
      inflight ??= fetchToken().finally(() => (inflight = null));
      return inflight;
    },
    baseUrl: () => base,
    clear() {
      cached = null;
      base = null;
    },
  };
}
