/**
 * The renderer's Content-Security-Policy, shared by the Electron shell and the browser host:
 * only its own scripts and styles; connections to loopback services (the embedded service and
 * the desktop API socket) and to the configured remote service are allowed by `connect-src`.
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
