/**
 * Which files of the queue the Uploads table lists: newest first, narrowed by a piece of the
 * file's name or folder and by state. A plate of 2,000 files is found by name this way; the
 * browser's own find cannot see rows the table has not put in the page (use-row-window.ts).
 */
import type { UploadJob } from '../../../../shared/desktop-api/contract';

export interface UploadListFilter {
  /** Part of the file's path, any case; empty for every file. */
  text: string;
  /** One state, or '' for all. */
  state: UploadJob['state'] | '';
}

export const NO_FILTER: UploadListFilter = { text: '', state: '' };

/** The ids of the jobs the filter lets through, newest (highest id) first. */
export function filteredJobIds(jobs: Record<number, UploadJob>, filter: UploadListFilter): number[] {
  const text = filter.text.trim().toLowerCase();
  const ids: number[] = [];
  for (const j of Object.values(jobs)) {
    if (filter.state && j.state !== filter.state) continue;
    if (text && !j.path.toLowerCase().includes(text)) continue;
    ids.push(j.id);
  }
  return ids.sort((a, b) => b - a);
}

/** How many jobs are in each state, for the state chooser. */
export function jobStateCounts(jobs: Record<number, UploadJob>): Partial<Record<UploadJob['state'], number>> {
  const counts: Partial<Record<UploadJob['state'], number>> = {};
  for (const j of Object.values(jobs)) counts[j.state] = (counts[j.state] ?? 0) + 1;
  return counts;
}
