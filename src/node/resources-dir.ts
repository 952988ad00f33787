/**
 * Where the shipped runtime assets (`resources/`: pipeline manifests and workflows,
 * vocabularies) are, wherever the code runs: from source, from the electron-vite bundle in
 * out/main, or from a packaged app (where they are unpacked beside app.asar so that workflow
 * engines, which are not Electron, can read them).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/** The absolute path of `resources/`, or of `resources/<sub>` when sub is given. */
export function resourcesDir(sub = ''): string {
  if (!cached) cached = process.env.LANEWAY_RESOURCES ?? findResources(dirname(fileURLToPath(import.meta.url)));
  return sub ? join(cached, sub) : cached;
}

function findResources(start: string): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'pipelines'))) return candidate.replace(`app.asar${'/'}`, `app.asar.unpacked/`);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`Cannot find Laneway's resources folder above ${start}; set LANEWAY_RESOURCES`);
}
