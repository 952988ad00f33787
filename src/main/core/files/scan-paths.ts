/**
 * Lists the files under dropped paths (folders recursively, hidden entries and symlink loops
 * skipped, bounded so that a dropped home folder cannot hang the app) with their sizes.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

export interface ScannedFile {
  path: string;
  name: string;
  size: number;
  /** The folder the file sits in (Nanopore barcode folders group by it). */
  dir: string;
}

const MAX_FILES = 100_000;
const MAX_DEPTH = 8;

/** Resolves a path from the renderer: absolute, existing, and its real location. */
export async function checkedPath(raw: string): Promise<string> {
  if (!isAbsolute(raw)) throw new Error(`Not an absolute path: ${raw}`);
  const real = await realpath(resolve(raw)).catch(() => null);
  if (!real) throw new Error(`No such file or folder: ${raw}`);
  return real;
}

/** Every regular file under the given paths. */
export async function scanPaths(paths: readonly string[]): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  const seen = new Set<string>();
  async function walk(path: string, depth: number): Promise<void> {
    if (out.length >= MAX_FILES || seen.has(path)) return;
    seen.add(path);
    const st = await lstat(path);
    if (st.isSymbolicLink()) {
      const target = await realpath(path).catch(() => null);
      if (target) await walk(target, depth);
      return;
    }
    if (st.isDirectory()) {
      if (depth > MAX_DEPTH) return;
      const entries = await readdir(path);
      entries.sort();
      for (const e of entries) if (!e.startsWith('.')) await walk(join(path, e), depth + 1);
      return;
    }
    if (st.isFile()) {
      const name = path.split(/[\\/]/).pop()!;
      out.push({ path, name, size: st.size, dir: path.slice(0, path.length - name.length - 1) });
    }
  }
  for (const p of paths) await walk(await checkedPath(p), 0);
  return out;
}

/** True when a path is a folder. */
export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}
