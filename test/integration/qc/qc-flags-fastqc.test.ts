/**
 * Our pass/warn/fail flags equal FastQC's own verdicts: Debian's fastqc (default limits.txt)
 * on generated files that each trip one module (low quality, N bases, adapters, varied lengths,
 * duplicates, a two-population GC mix) and on a clean one, module by module from its
 * summary.txt.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FASTQC_LIMITS } from '../../../src/service/tools/qc/qc-flags';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqcReports } from '../../helpers/fastqc-reference';
import { fastqText, type FastqSpec } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

vi.setConfig({ testTimeout: 120_000 });

const dir = tempDir('laneway-qc-flags-');
afterAll(() => dir.remove());

const HQ: [number, number] = [30, 40];
const CASES: Record<string, FastqSpec> = {
  clean: { reads: 3000, length: 100, seed: 1, quality: HQ },
  low_quality: { reads: 3000, length: 100, seed: 2, quality: [2, 22] },
  n_rich: { reads: 3000, length: 100, seed: 3, quality: HQ, nRate: 0.25 },
  n_some: { reads: 3000, length: 100, seed: 3, quality: HQ, nRate: 0.08 },
  adapters: {
    reads: 3000,
    length: 100,
    seed: 4,
    quality: HQ,
    adapter: { sequence: 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA', rate: 0.5 },
  },
  varied_lengths: { reads: 3000, length: [50, 100], seed: 5, quality: HQ },
  duplicates: { reads: 3000, length: 100, seed: 6, quality: HQ, duplicateRate: 0.6 },
};

/** Half the reads AT-only: two GC populations, far from one normal curve. */
function gcMix(): string {
  const at = fastqText({ reads: 1500, length: 100, seed: 7, quality: HQ, name: 'at' })
    .split('\n')
    .map((l, i) => (i % 4 === 1 ? l.replace(/G/g, 'A').replace(/C/g, 'T') : l))
    .join('\n');
  return at + fastqText({ reads: 1500, length: 100, seed: 8, quality: HQ, name: 'gc' });
}

function fastqcVerdicts(files: string[]): Map<string, Record<string, string>> {
  return new Map([...fastqcReports(files, dir.path)].map(([name, report]) => [name, report.verdicts]));
}

describe('QC flags agree with FastQC', () => {
  it("uses FastQC's default limits as Debian ships them", () => {
    const limits = readFileSync('/etc/fastqc/Configuration/limits.txt', 'utf8');
    const value = (key: string, level: string) =>
      Number(new RegExp(`^${key}\\s+${level}\\s+([\\d.]+)`, 'm').exec(limits)![1]);
    /** limits.txt's warn and error levels of `key`, as our warn and fail. */
    const limit = (key: string) => ({ warn: value(key, 'warn'), fail: value(key, 'error') });
    expect(FASTQC_LIMITS.baseLowerQuartile).toEqual(limit('quality_base_lower'));
    expect(FASTQC_LIMITS.baseMedian).toEqual(limit('quality_base_median'));
    expect(FASTQC_LIMITS.sequenceQualityMode).toEqual(limit('quality_sequence'));
    expect(FASTQC_LIMITS.baseContentDifference).toEqual(limit('sequence'));
    expect(FASTQC_LIMITS.gcDeviation).toEqual(limit('gc_sequence'));
    expect(FASTQC_LIMITS.nContent).toEqual(limit('n_content'));
    expect(FASTQC_LIMITS.duplicationRemaining).toEqual(limit('duplication'));
    expect(FASTQC_LIMITS.overrepresented).toEqual(limit('overrepresented'));
    expect(FASTQC_LIMITS.adapter).toEqual(limit('adapter'));
  });

  it('gives the verdict FastQC gives, module by module, on files that trip each module', async () => {
    const files: string[] = [];
    for (const [name, spec] of Object.entries(CASES)) {
      const path = join(dir.path, `${name}.fq`);
      writeFileSync(path, fastqText(spec));
      files.push(path);
    }
    const mix = join(dir.path, 'gc_mix.fq');
    writeFileSync(mix, gcMix());
    files.push(mix);
    const reference = fastqcVerdicts(files);
    const seen = new Set<string>();
    for (const path of files) {
      const base = path.split('/').pop()!.replace(/\.fq$/, '');
      const ours = Object.fromEntries((await runQc(path)).flags.map((f) => [f.module, f.status]));
      expect({ file: base, ...ours }).toEqual({ file: base, ...reference.get(base) });
      for (const [module, status] of Object.entries(ours)) seen.add(`${module}=${status}`);
    }
    // The cases are not all passes: each tripped module really was tested.
    for (const expected of [
      'per_base_quality=fail',
      'per_sequence_quality=fail',
      'per_base_n_content=fail',
      'per_base_n_content=warn',
      'adapter_content=fail',
      'sequence_length_distribution=warn',
      'sequence_duplication_levels=fail',
      'overrepresented_sequences=warn',
      'per_sequence_gc_content=fail',
    ])
      expect(seen).toContain(expected);
  });
});
