/** Run folders written "a while ago", past the settle time the watched folders wait for. */
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** Sets the modification time (seconds since the epoch) of a folder and everything in it. */
export function ageTree(path: string, seconds: number): void {
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) ageTree(join(path, n), seconds);
  utimesSync(path, seconds, seconds);
}
