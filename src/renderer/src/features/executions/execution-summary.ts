/**
 * What the dashboard says about an execution's progress in samples: built-in engines run one
 * process per sample (`qc:SAMPLE`, `trim:SAMPLE`), so "1 of 3 samples done" is counted from
 * the processes that finished, and the bar follows the samples' own processes rather than a
 * step estimate that read 50% with one sample of three done (issue 16 item 12).
 */
import type { Execution } from '../../service-client/types';

export interface SampleProgress {
  done: number;
  failed: number;
  total: number;
  percent: number;
}

const sampleOf = (processName: string) => processName.split(':').slice(1).join(':');

/** Samples done of the execution, or null when its processes are not one per sample. */
export function sampleProgress(e: Execution): SampleProgress | null {
  const names = (e.samples ?? []).map((s) => (typeof s === 'object' ? s.name : String(s)));
  const total = names.length;
  if (total === 0) return null;
  const perSample = (e.process_executions ?? []).filter((p) => names.includes(sampleOf(p.name)));
  if (perSample.length === 0 && e.status !== 'completed') return null;
  const done = perSample.filter((p) => p.status === 'completed').length;
  const failed = perSample.filter((p) => p.status === 'failed').length;
  // The bar: each sample's share, full when its process ended, else as far as its process got
  // (a one-sample run sat at 0% until it ended; a step estimate is not used, see above).
  const share = (p: (typeof perSample)[number]) =>
    p.status === 'completed' || p.status === 'failed' ? 100 : Math.min(100, Math.max(0, p.progress));
  const percent = e.status === 'completed' ? 100 : perSample.reduce((sum, p) => sum + share(p), 0) / total;
  return { done: e.status === 'completed' ? total - failed : done, failed, total, percent };
}
