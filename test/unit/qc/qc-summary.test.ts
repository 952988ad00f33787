/**
 * QC at a glance (issue 20 item 4): a sample's files folded into one row, and the sentence the
 * completion notice carries, naming the failing samples and the checks they failed.
 */
import { describe, expect, it } from 'vitest';
import { summariseSample } from '../../../src/service/executions/qc-summary';
import { qcSentence } from '../../../src/service/executions/execution-ended';

const file = (reads: number, q30: number, gc: number, adapters: number[], flags: Array<[string, string, string]>) => ({
  summary: {
    total_reads: reads,
    total_bases: reads * 100,
    q30_bases: reads * 100 * q30,
    gc_bases: reads * 100 * gc,
    n_bases: 0,
  },
  adapter_content: { totals: adapters },
  flags: flags.map(([module, title, status]) => ({ module, title, status: status as 'pass' | 'warn' | 'fail' })),
});

describe('summariseSample', () => {
  it('folds read 1 and read 2: pairs, base-weighted Q30 and GC, the worst adapter and module', () => {
    const row = summariseSample({ id: 7, name: 'Liver-2' }, 3, [
      file(500, 0.9, 0.4, [0.5, 2], [['per_base_quality', 'Per base sequence quality', 'pass']]),
      file(500, 0.1, 0.5, [4], [['per_base_quality', 'Per base sequence quality', 'fail']]),
    ]);
    expect(row).toMatchObject({ sample_id: 7, sample: 'Liver-2', execution_id: 3, files: 2, reads: 500 });
    expect(row.q30_rate).toBeCloseTo(0.5);
    expect(row.gc_content).toBeCloseTo(0.45);
    expect(row.adapter_percent).toBe(4);
    expect(row.modules).toEqual([{ module: 'per_base_quality', title: 'Per base sequence quality', status: 'fail' }]);
    expect(row.verdict).toBe('fail');
  });
  it('a sample without QC has no figures and no verdict', () => {
    expect(summariseSample({ id: 1, name: 'x' }, null, [])).toMatchObject({
      files: 0,
      reads: null,
      q30_rate: null,
      gc_content: null,
      adapter_percent: null,
      verdict: null,
    });
  });
});

describe('the completion notice names the failing samples', () => {
  it('counts the passes and names failures and warnings with their checks', () => {
    const ok = summariseSample({ id: 1, name: 'Liver-1' }, 1, [file(10, 0.95, 0.4, [0], [['gc', 'GC', 'pass']])]);
    const bad = summariseSample({ id: 2, name: 'Liver-2' }, 1, [
      file(
        10,
        0.03,
        0.4,
        [0],
        [
          ['per_base_quality', 'Per base sequence quality', 'fail'],
          ['n_content', 'Per base N content', 'warn'],
        ],
      ),
    ]);
    const warned = summariseSample({ id: 3, name: 'Liver-3' }, 1, [
      file(10, 0.9, 0.4, [0], [['duplication', 'Sequence duplication levels', 'warn']]),
    ]);
    // A failing sample is named under Failed only, with its failed checks.
    expect(qcSentence([ok, bad, warned])).toEqual([
      'Quality control: 1 of 3 samples passed every check.',
      'Failed: Liver-2 (Per base sequence quality).',
      'Warnings: Liver-3 (Sequence duplication levels).',
    ]);
    expect(qcSentence([])).toEqual([]);
  });
});
