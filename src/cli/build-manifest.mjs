// What a build was made from, and whether it still matches the sources. Every build of ours (the
// command line's esbuild bundle in out/cli, the app's electron-vite bundles in out/main,
// out/preload and out/renderer) writes a manifest: each input file with its size, modification
// time and sha256, and one hash over all of them. Before a bundle runs, its manifest is checked:
// an input whose size and time are unchanged is taken as unchanged (a stat, about 2 µs per file,
// so that `laneway --help` stays as quick as Node itself); one whose time moved (a git checkout,
// a save without edits) is hashed again, and only a different content makes the build stale.
// Plain JavaScript: it runs before anything is built.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';

const require = createRequire(import.meta.url);
let crypto;
/**
 * A sha256 hasher from node:crypto, loaded on first use: checking a fresh build (every start)
 * hashes nothing, and loading the module cost some 3 ms of each `laneway` start.
 */
const sha256 = () => (crypto ??= require('node:crypto')).createHash('sha256');

export const MANIFEST_VERSION = 1;

/** sha256 of a file's bytes, hex. */
export function fileHash(path) {
  return sha256().update(readFileSync(path)).digest('hex');
}

/** [path relative to root, size, mtimeMs, sha256] for each input (absolute or root-relative paths). */
export function inputRecords(root, paths) {
  const unique = [...new Set(paths.map((p) => (isAbsolute(p) ? p : join(root, p))))].sort();
  return unique.map((path) => {
    const s = statSync(path);
    return [relative(root, path), s.size, s.mtimeMs, fileHash(path)];
  });
}

/** One hash over every input's path and content: names the build. */
export function sourceHash(records, salt = '') {
  const h = sha256().update(`${MANIFEST_VERSION}\n${salt}\n`);
  for (const [path, , , hash] of records) h.update(`${path}\0${hash}\n`);
  return h.digest('hex');
}

/** The manifest at `file`, or null when there is none or it is unreadable. */
export function readManifest(file) {
  try {
    const m = JSON.parse(readFileSync(file, 'utf8'));
    return m && m.version === MANIFEST_VERSION && Array.isArray(m.inputs) ? m : null;
  } catch {
    return null;
  }
}

/**
 * The first input that no longer matches its record (relative path), or null when the build is
 * fresh. A removed input counts as changed.
 */
export function changedInput(root, manifest) {
  // Joined by hand: path.join's normalising was some 2.5 of the 7 ms these 500-odd stats took
  // at each start (the paths are relative() of the root, so nothing needs normalising).
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (const [path, size, mtimeMs, hash] of manifest.inputs) {
    const abs = prefix + path;
    let s;
    try {
      s = statSync(abs);
    } catch {
      return path;
    }
    if (s.size === size && s.mtimeMs === mtimeMs) continue;
    if (s.size !== size || fileHash(abs) !== hash) return path;
  }
  return null;
}

/** Writes JSON so that a reader sees the old file or the new one, never half of one. */
export function writeJsonAtomic(file, value) {
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, `${JSON.stringify(value)}\n`);
  renameSync(part, file);
}

/** True when any input was modified at or after `since` (ms): it may have changed mid-build. */
export function modifiedSince(records, since) {
  return records.some(([, , mtimeMs]) => mtimeMs >= since);
}
