/**
 * The renderer's Content-Security-Policy, shared by the Electron shell and the browser host:
 * only its own scripts, styles, images and fonts; no plugins, frames, forms or base changes.
 * `connect-src` allows any http(s) and ws(s) origin, not only loopback: the remote service is a
 * profile the user adds at run time (the renderer calls it directly with the access token, and
 * follows executions over its WebSocket), while this policy is fixed when the window loads.
 * The desktop API socket itself is guarded by the launch token and its origin check, not here.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' http: https: ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
