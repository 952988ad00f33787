/**
 * The path of an HTTP request target, for raw `upgrade` and `request` handlers that run outside
 * fastify's router. A request line is untrusted text: `GET http://[ HTTP/1.1` is accepted by
 * Node's parser but makes `new URL` throw, and a throw in an event handler ends the process.
 * So these helpers never throw: a target that cannot be parsed is null and the caller refuses it.
 */

/** The pathname of a request target, or null when the target is not a parsable URL. */
export function targetPathname(target: string | undefined): string | null {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

/** A percent-encoded path decoded, or null when its escapes are broken (`/%E0%A4%A`). */
export function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}
