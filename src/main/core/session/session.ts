/**
 * One signed-in account on one service profile: the refresh token in the token store, the
 * access token in memory only, refreshed shortly before it expires and whenever the service
 * answers 401 (the client then re-sends once). Concurrent refreshes share one request.
 */
import type { Me } from '../../../shared/desktop-api/contract';
import { projectMe } from '../../../shared/desktop-api/auth-schemas';
import { errorFromResponse, ServiceError } from '../../../shared/service-client/service-error';
import type { ServiceClient, TokenSource } from '../service-client/service-client';
import { jwtExpiry, refreshCookieHeader, refreshTokenFromSetCookie } from './refresh-cookie';
import type { TokenStore } from './token-store';
import { getMe, getToken, postLogin, postLogout } from '../../../shared/service-api/endpoints';

/** Refresh when less than this much lifetime is left. */
const REFRESH_MARGIN_SECONDS = 60;

export interface SessionOptions {
  /** Keychain service name of this profile. */
  keychainService: string;
  store: TokenStore;
  /** Anonymous client of the profile's service (login, token, logout go without Bearer). */
  client: () => ServiceClient;
  now?: () => number;
  onChange?: () => void;
}

function notSignedIn(message = 'Not signed in'): ServiceError {
  return new ServiceError({ code: 'NOT_SIGNED_IN', message, status: 401, retryable: false });
}

export class Session implements TokenSource {
  username: string | null = null;
  user: Me | null = null;
  private refreshToken: string | null = null;
  private access: { token: string; exp: number } | null = null;
  private inflight: Promise<string> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? Date.now;
  }

  get signedIn(): boolean {
    return this.refreshToken !== null;
  }

  /** When the in-memory access token expires (ms since epoch), or null. */
  get accessExpiresAt(): number | null {
    return this.access ? this.access.exp * 1000 : null;
  }

  /** Loads the stored refresh token of the account last signed in on this profile. */
  async restore(username: string | null): Promise<void> {
    this.username = username;
    this.refreshToken = username ? await this.options.store.get(this.options.keychainService, username) : null;
  }

  /** Signs in with a password; stores the refresh token, keeps the access token in memory. */
  async login(username: string, password: string): Promise<Me> {
    const res = await this.options.client().send(postLogin, { body: { username, password }, anonymous: true });
    if (!res.ok) throw errorFromResponse(res.status, res.body);
    const body = res.body;
    const refresh = refreshTokenFromSetCookie(res.headers.getSetCookie());
    if (!refresh)
      throw new ServiceError({
        code: 'INVALID_REFRESH_TOKEN',
        message: 'The service set no refresh cookie',
        status: 200,
        retryable: false,
      });
    if (this.username && this.username !== body.user.username)
      await this.options.store.delete(this.options.keychainService, this.username);
    this.username = body.user.username;
    this.refreshToken = refresh;
    await this.options.store.set(this.options.keychainService, this.username, refresh);
    this.setAccess(body.token);
    this.user = await this.me();
    this.options.onChange?.();
    return this.user;
  }

  /** A valid access token, refreshed when close to expiry. */
  async token(): Promise<string> {
    if (this.access && this.access.exp - this.now() / 1000 > REFRESH_MARGIN_SECONDS) return this.access.token;
    return this.refresh();
  }

  /** Forgets an access token the service refused, so that the next call refreshes. */
  invalidate(token: string): void {
    if (this.access?.token === token) this.access = null;
  }

  /** Exchanges the refresh cookie for a new access token (one request for concurrent callers). */
  refresh(): Promise<string> {
    this.inflight ??= this.doRefresh().finally(() => (this.inflight = null));
    return this.inflight;
  }

  /** The signed-in user as the service describes them. */
  async me(): Promise<Me> {
    const client = this.options.client();
    const token = await this.token();
    const raw = await client.call(getMe, {
      headers: { authorization: `Bearer ${token}` },
      anonymous: true,
    });
    return projectMe(raw);
  }

  /** Revokes the refresh token on the service and deletes it from the store. */
  async logout(): Promise<void> {
    const refresh = this.refreshToken;
    if (refresh) {
      // A service that cannot be reached still gets signed out locally; the token expires there.
      await this.options
        .client()
        .send(postLogout, { headers: { cookie: refreshCookieHeader(refresh) }, anonymous: true })
        .catch(() => undefined);
    }
    if (this.username) await this.options.store.delete(this.options.keychainService, this.username);
    this.clear();
  }

  private async doRefresh(): Promise<string> {
    if (!this.refreshToken) throw notSignedIn();
    const res = await this.options
      .client()
      .send(getToken, { headers: { cookie: refreshCookieHeader(this.refreshToken) }, anonymous: true });
    if (res.status === 401) {
      // Revoked or expired on the service: the stored token is useless.
      if (this.username) await this.options.store.delete(this.options.keychainService, this.username);
      this.clear();
      throw notSignedIn('The session ended on the service; sign in again');
    }
    if (!res.ok) throw errorFromResponse(res.status, res.body);
    const rotated = refreshTokenFromSetCookie(res.headers.getSetCookie());
    if (rotated && rotated !== this.refreshToken && this.username) {
      this.refreshToken = rotated;
      await this.options.store.set(this.options.keychainService, this.username, rotated);
    }
    const token = res.body.token;
    this.setAccess(token);
    return token;
  }

  private setAccess(token: string): void {
    // A token without a readable expiry is used once per call and refreshed each time.
    this.access = { token, exp: jwtExpiry(token) ?? this.now() / 1000 };
  }

  private clear(): void {
    const was = this.refreshToken !== null;
    this.refreshToken = null;
    this.access = null;
    this.user = null;
    if (was) this.options.onChange?.();
  }
}
