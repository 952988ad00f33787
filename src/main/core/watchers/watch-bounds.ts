/**
 * Bounds on what one watcher may follow (issue 11: `watchers:add` of /proc grew the host to
 * 4 GB and hung it). A folder on a pseudo-filesystem (/proc, /sys, /dev and their kin, found
 * by path and by the filesystem's type) is refused; a folder holding more entries than a
 * watcher follows is refused with the count, before chokidar ever walks it; symbolic links are
 * never followed, so a link loop cannot multiply the tree. The count walks asynchronously, one
 * directory read at a time, so the host keeps answering while it runs.
 */
import { opendir, statfs } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Entries (files and folders) one watcher follows at most. */
export const MAX_WATCHED_ENTRIES = 20_000;
/** Folder levels under the watched folder that are followed (run folders nest ~6 deep). */
export const MAX_WATCH_DEPTH = 8;

const PSEUDO_ROOTS = ['/proc', '/sys', '/dev'];

// statfs f_type magic numbers (linux/magic.h) of filesystems that hold no instrument data.
const PSEUDO_TYPES = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1373, 'devtmpfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x42494e4d, 'binfmt_misc'],
]);

export class WatchRefused extends Error {}

/** Throws WatchRefused when a (real, absolute) path lies on a pseudo-filesystem. */
export async function refusePseudoFilesystem(real: string): Promise<void> {
  const root = PSEUDO_ROOTS.find((r) => real === r || real.startsWith(r + sep));
  if (root)
    throw new WatchRefused(
      `${real} is on ${root}, a system pseudo-filesystem that holds no instrument data; watch the folder your instrument writes runs into`,
    );
  if (process.platform !== 'linux') return;
  const fs = await statfs(real).catch(() => null);
  const type = fs ? PSEUDO_TYPES.get(Number(fs.type)) : undefined;
  if (type)
    throw new WatchRefused(
      `${real} is on a ${type} pseudo-filesystem that holds no instrument data; watch the folder your instrument writes runs into`,
    );
}

/**
 * Counts the entries under `root` down to `maxDepth`, not following symbolic links; stops as
 * soon as `cap` is passed. Answers the count (cap + 1 means "more than cap").
 */
export async function countEntries(
  root: string,
  cap = MAX_WATCHED_ENTRIES,
  maxDepth = MAX_WATCH_DEPTH,
): Promise<number> {
  let count = 0;
  const queue: Array<[string, number]> = [[root, 0]];
  while (queue.length) {
    const [dir, depth] = queue.shift()!;
    const handle = await opendir(dir).catch(() => null);
    if (!handle) continue;
    for await (const entry of handle) {
      if (entry.name.startsWith('.')) continue;
      // Leaving the loop closes the directory handle.
      if (++count > cap) return count;
      // Dirent of a symbolic link says isSymbolicLink, never isDirectory: links are not followed.
      if (entry.isDirectory() && depth + 1 < maxDepth) queue.push([join(dir, entry.name), depth + 1]);
    }
  }
  return count;
}

/** Throws WatchRefused when `root` cannot be watched within the bounds. */
export async function checkWatchable(root: string, cap = MAX_WATCHED_ENTRIES): Promise<number> {
  await refusePseudoFilesystem(root);
  const count = await countEntries(root, cap);
  if (count > cap)
    throw new WatchRefused(
      `${root} holds more than ${cap.toLocaleString('en-US')} files and folders within ${MAX_WATCH_DEPTH} levels, more than one watcher follows; watch the instrument's output folder itself (the folder its run folders appear in)`,
    );
  return count;
}
