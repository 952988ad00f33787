/**
 * Upload file names are data, never paths: the service refuses anything that a file system or
 * a later download could read as a location or that a terminal could misrender.
 */

const MAX_NAME_BYTES = 255;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot be an upload's file name, or null when it can. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `must be at most ${MAX_NAME_BYTES} bytes`;
  if (CONTROL.test(name)) return 'must not contain control characters or NUL';
  if (name.includes('/') || name.includes('\\')) return 'must be a file name, not a path';
  if (name === '.' || name === '..' || name.startsWith('.')) return 'must not start with a dot';
  if (name !== name.trim()) return 'must not start or end with spaces';
  return null;
}
