/** The refresh-token cookie of `/api`: `service_refresh_token`, Path=/api (http/refresh-cookie.ts). */
import { refreshCookie } from '../http/refresh-cookie';

export const REFRESH_COOKIE = 'service_refresh_token';

const cookie = refreshCookie(REFRESH_COOKIE, '/api');

/** The refresh cookie's value, or null when absent. */
export const readRefreshCookie = cookie.read;
/** Sets the refresh cookie: HttpOnly, SameSite=Strict, Path=/api, one year, Secure over https. */
export const setRefreshCookie = cookie.set;
/** Clears the refresh cookie. */
export const clearRefreshCookie = cookie.clear;
