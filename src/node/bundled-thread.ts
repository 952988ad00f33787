/**
 * Starts a worker thread from TypeScript source without tsx's loader in the thread. Registering
 * tsx in a new thread costs about 0.2 s of CPU and up to a second of waiting on a loaded
 * machine (it starts a loader-hooks thread of its own), which a short command like
 * `laneway demux` pays in full. Instead the entry is bundled once by esbuild (the one tsx itself
 * uses) into a per-user cache, keyed by the entry's path and rebuilt when any of its inputs
 * changes, and later starts run the cached JavaScript (a few milliseconds).
 *
 * Only for entries that import Node's built-ins and project files (the bundle runs from the
 * cache folder, where packages would not resolve). The built app keeps its `.js` beside the
 * chunk; when esbuild cannot be used, tsx's loader is the fallback.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startThread } from './start-thread';

interface BuildResult {
  metafile?: { inputs: Record<string, unknown> };
}
interface Esbuild {
  buildSync(options: Record<string, unknown>): BuildResult;
}

/** Each input with its size and modification time when the bundle was made. */
type Manifest = Array<[path: string, size: number, mtimeMs: number]>;

function cacheDir(): string {
  const dir = join(tmpdir(), `laneway-threads-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function fresh(manifestPath: string): boolean {
  try {
    const inputs = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    return inputs.every(([path, size, mtime]) => {
      const s = statSync(path);
      return s.size === size && s.mtimeMs === mtime;
    });
  } catch {
    return false;
  }
}

/**
 * A file name for the entry's path (FNV-1a, 64 bits): node:crypto is not imported for it, as
 * loading it cost every `laneway demux` some 2.5 ms before its first read.
 */
function pathKey(path: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < path.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(path.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

/** The cached bundle of `entry` (a .ts file), made when missing or stale. */
export function bundleEntry(entry: string): string {
  const dir = cacheDir();
  const key = pathKey(entry);
  const out = join(dir, `${key}.mjs`);
  const manifestPath = join(dir, `${key}.json`);
  if (existsSync(out) && fresh(manifestPath)) return out;
  // Required lazily: only source runs bundle (the packaged app ships its threads prebuilt).
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  const part = `${out}.${process.pid}.part`;
  const cwd = process.cwd();
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: part,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: cwd,
  });
  const inputs: Manifest = Object.keys(result.metafile?.inputs ?? {}).map((p) => {
    const path = isAbsolute(p) ? p : resolve(cwd, p);
    const s = statSync(path);
    return [path, s.size, s.mtimeMs];
  });
  // Renames are atomic: two processes bundling at once both leave a whole file.
  renameSync(part, out);
  writeFileSync(`${manifestPath}.${process.pid}.part`, JSON.stringify(inputs));
  renameSync(`${manifestPath}.${process.pid}.part`, manifestPath);
  return out;
}

/** `relative` is resolved against `fromUrl` without extension, e.g. `./demux-output-thread`. */
export function startBundledThread(fromUrl: string, relative: string): Worker {
  const js = fileURLToPath(new URL(`${relative}.js`, fromUrl));
  const ts = fileURLToPath(new URL(`${relative}.ts`, fromUrl));
  if (existsSync(js) || !existsSync(ts)) return startThread(fromUrl, relative);
  let bundle: string;
  try {
    bundle = bundleEntry(ts);
  } catch {
    return startThread(fromUrl, relative);
  }
  return new Worker(bundle);
}
