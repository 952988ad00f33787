/**
 * Free space of the disk holding the data folder. A run that fails while that disk is full
 * says so: the engine itself only reports an exit code, and the reason (ENOSPC in a tool's
 * stderr) would otherwise be left for the reader of the logs to find.
 */
import { statfsSync } from 'node:fs';

/** Bytes available to the service on the disk holding `dir`; null when unknown. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** True when the disk holding `dir` has less than `threshold` bytes available. */
export function diskNearlyFull(dir: string, threshold = 1024 * 1024): boolean {
  const free = freeBytes(dir);
  return free !== null && free < threshold;
}
