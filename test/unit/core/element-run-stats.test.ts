/** Bases2Fastq's RunStats.json read for the run's unassigned share; what it does not say is unknown. */
import { describe, expect, it } from 'vitest';
import { readElementUnassignedShare } from '../../../src/main/core/instruments/element-run-stats';

describe("Element RunStats.json's unassigned share", () => {
  it('reads the run-level counts, else adds up the lanes weighted by their polonies', () => {
    expect(readElementUnassignedShare(JSON.stringify({ NumPolonies: 1000, PercentAssignedReads: 97.5 }))).toEqual({
      reads: 25,
      fraction: 0.025,
    });
    const lanes = {
      Lanes: [
        { Lane: 1, NumPolonies: 300, PercentAssignedReads: 100 },
        { Lane: 2, NumPolonies: 100, PercentAssignedReads: 60 },
      ],
    };
    expect(readElementUnassignedShare(JSON.stringify(lanes))).toEqual({ reads: 40, fraction: 0.1 });
  });

  it('answers null for what does not say it: broken JSON, no counts, a lane without them, a share above 100', () => {
    for (const text of [
      '{"NumPolonies": 10',
      'null',
      '[]',
      JSON.stringify({ NumPolonies: 10 }),
      JSON.stringify({ NumPolonies: 0, PercentAssignedReads: 50 }),
      JSON.stringify({ NumPolonies: 10, PercentAssignedReads: 150 }),
      JSON.stringify({ NumPolonies: '10', PercentAssignedReads: '50' }),
      JSON.stringify({ Lanes: [{ NumPolonies: 10, PercentAssignedReads: 50 }, { NumPolonies: 10 }] }),
      JSON.stringify({ Lanes: [] }),
    ])
      expect(readElementUnassignedShare(text), text).toBeNull();
  });
});
