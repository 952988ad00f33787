/**
 * The renderer's Content-Security-Policy, shared by the Electron shell and the browser host:
 * only its own scripts, styles, images and fonts; no plugins, frames, forms or base changes.
 * `connect-src` allows the renderer to reach loopback (the embedded service and the desktop
 * API socket, on ports chosen at run time) and the configured remote services (each profile's
 * origin, over HTTP and its WebSocket), nothing else. The policy is computed whenever the page
 * loads, so a remote profile added later is reachable once the page reloads (the renderer
 * reloads itself after adding one). The desktop API socket is also guarded by the launch token
 * and its origin check. `frame-src` allows the same services: a report is shown in a frame from
 * the service's view address, which the service sandboxes (its own opaque origin, no connections;
 * src/service/data/data-view.routes.ts).
 */

/**
 * Loopback on any port, over HTTP and WebSocket. IPv6 literals such as [::1] cannot be named:
 * CSP's host-source grammar has no brackets, and Chromium logs each such source as an error on
 * every page load and ignores it.
 */
const LOOPBACK = ['127.0.0.1', 'localhost'].flatMap((host) => [`http://${host}:*`, `ws://${host}:*`]);

/** A service URL's origin and its WebSocket counterpart; null for anything but http(s). */
function originsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return [];
  // An IPv6 literal cannot be a CSP source (see LOOPBACK); such a service is unreachable here.
  if (parsed.hostname.startsWith('[')) return [];
  const ws = parsed.protocol === 'https:' ? 'wss:' : 'ws:';
  return [parsed.origin, `${ws}//${parsed.host}`];
}

/** The policy for a page that may reach loopback and these remote services. */
export function rendererCsp(remoteUrls: readonly string[] = []): string {
  const connect = [...new Set(["'self'", ...LOOPBACK, ...remoteUrls.flatMap(originsOf)])];
  const frames = connect.filter((source) => !/^wss?:/.test(source));
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frames.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}
