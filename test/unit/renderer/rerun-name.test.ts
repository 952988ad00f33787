import { describe, expect, it } from 'vitest';
import { rerunName } from '../../../src/renderer/src/features/pipelines/rerun-prefill';

describe('the name proposed for a re-run', () => {
  it('adds (re-run) to a first run', () => {
    expect(rerunName('QC big')).toBe('QC big (re-run)');
  });
  it('counts re-runs of a re-run instead of stacking "(re-run) (re-run)"', () => {
    expect(rerunName('QC big (re-run)')).toBe('QC big (re-run 2)');
    expect(rerunName('QC big (re-run 2)')).toBe('QC big (re-run 3)');
    expect(rerunName('QC big (re-run 9)')).toBe('QC big (re-run 10)');
  });
  it('leaves other parentheses alone', () => {
    expect(rerunName('QC (lane 2)')).toBe('QC (lane 2) (re-run)');
    expect(rerunName('QC (re-run of lane 2)')).toBe('QC (re-run of lane 2) (re-run)');
  });
});
