/**
 * Which programs this machine has: checked once at start on PATH, so that the catalogue can say
 * why a version cannot run here instead of failing minutes into an execution.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** True when `program` is an executable file somewhere on PATH. */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** Looks up each program once and remembers the answer. */
export function checkTools(programs: Iterable<string>, path?: string): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const p of programs) if (!found.has(p)) found.set(p, onPath(p, path));
  return found;
}
