/**
 * The mount's refresh cookie: `flow_refresh_token`, as Flow names it, with `Path=/flow/api` so
 * that flowbio's cookie jar sends it to B/token and it never meets `/api`'s own cookie
 * (http/refresh-cookie.ts).
 */
import { refreshCookie } from '../http/refresh-cookie';

export const FLOW_REFRESH_COOKIE = 'flow_refresh_token';
export const FLOW_PREFIX = '/flow/api';

const cookie = refreshCookie(FLOW_REFRESH_COOKIE, FLOW_PREFIX);

/** The cookie's value, or null. */
export const readFlowCookie = cookie.read;
/** Sets the cookie (HttpOnly, one year, Secure over https). */
export const setFlowCookie = cookie.set;
/** Clears the cookie. */
export const clearFlowCookie = cookie.clear;
