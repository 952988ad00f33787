/**
 * How to start one of the project's own entry files as a Node child process, wherever the code
 * runs: from TypeScript source (tsx registered as a loader), from the built bundle, or inside
 * Electron (whose binary acts as Node with ELECTRON_RUN_AS_NODE).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface NodeCommand {
  execPath: string;
  args: string[];
  env: Record<string, string>;
}

/** Resolves `relative` (without extension) against `fromUrl` and builds the command to run it. */
export function nodeEntry(fromUrl: string, relative: string, args: string[] = []): NodeCommand {
  const base = new URL(relative, fromUrl);
  const js = fileURLToPath(`${base.href}.js`);
  const ts = fileURLToPath(`${base.href}.ts`);
  const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  if (existsSync(js)) return { execPath: process.execPath, args: [js, ...args], env };
  if (!existsSync(ts)) {
    // In the electron-vite bundle every entry sits flat beside the chunk running this code.
    const bundled = join(dirname(fileURLToPath(import.meta.url)), `${basename(fileURLToPath(base))}.js`);
    if (existsSync(bundled)) return { execPath: process.execPath, args: [bundled, ...args], env };
    throw new Error(`No entry at ${fileURLToPath(base)}(.js|.ts)`);
  }
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  return { execPath: process.execPath, args: ['--import', tsxLoader, ts, ...args], env };
}
