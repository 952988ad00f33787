/**
 * The size a queued job will upload, before it starts (its row's size is set only when it
 * starts, because an unset size means "never sent a byte" to the runner). The totals and the
 * rows of the Uploads screen count queued files with it, so "12 MB of 40 MB" is true from the
 * moment files are dropped. Sources are statted once per job and remembered.
 */
import { statSync } from 'node:fs';
import type { JobRow } from './job-store';

const cache = new Map<string, number>();

/** The row's recorded size, else the sum of its sources' sizes now (0 for a missing source). */
export function expectedSize(row: Pick<JobRow, 'id' | 'size' | 'sources'>): number {
  if (row.size !== null) return row.size;
  const key = `${row.id}\u0000${row.sources}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let total = 0;
  try {
    for (const p of JSON.parse(row.sources) as string[]) {
      try {
        total += statSync(p).size;
      } catch {
        // Not there (yet): the runner reports it when the job starts; count nothing meanwhile.
      }
    }
  } catch {
    return 0;
  }
  // Bounded: a queue of many thousands of files keeps only recent entries.
  if (cache.size > 10_000) cache.clear();
  cache.set(key, total);
  return total;
}
