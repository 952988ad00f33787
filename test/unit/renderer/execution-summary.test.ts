import { describe, expect, it } from 'vitest';
import { sampleProgress } from '../../../src/renderer/src/features/executions/execution-summary';
import type { Execution } from '../../../src/renderer/src/service-client/types';

/** A built-in run's shape: one process per sample, named `qc:SAMPLE`. */
function run(status: string, progress: number, procs: Array<[string, string, number]>): Execution {
  return {
    id: 1,
    name: 'QC',
    status,
    progress,
    created: '2026-11-26T05:00:00Z',
    samples: [...new Set(procs.map(([n]) => n))].map((name, i) => ({ id: i + 1, name })),
    process_executions: procs.map(([name, st, p]) => ({ name: `qc:${name}`, status: st, progress: p })),
  } as Execution;
}

describe('the overall progress of a run in samples', () => {
  it('moves with a lone sample as its process runs (it sat at 0% until the end)', () => {
    const r = sampleProgress(run('running', 40, [['Big-C', 'running', 33]]))!;
    expect(r.done).toBe(0);
    expect(r.percent).toBeCloseTo(33);
  });
  it('counts a finished sample whole and the others as far as they got, never a step estimate', () => {
    const r = sampleProgress(
      run('running', 50, [
        ['A', 'completed', 100],
        ['B', 'running', 30],
        ['C', 'queued', 0],
      ]),
    )!;
    expect(r.done).toBe(1);
    expect(r.percent).toBeCloseTo((100 + 30 + 0) / 3);
  });
  it('is full once the run completed, with its failed samples counted', () => {
    const r = sampleProgress(
      run('completed', 100, [
        ['A', 'completed', 100],
        ['B', 'failed', 60],
      ]),
    )!;
    expect(r).toMatchObject({ done: 1, failed: 1, total: 2, percent: 100 });
  });
});
