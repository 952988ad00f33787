/**
 * Our counts equal fastp's on the same file: Debian's fastp (`-A -Q -L -G`, summary
 * before_filtering) on generated files, plain and gzip, with varied lengths, N bases, the whole
 * Phred+33 range and lowercase bases.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText, type FastqSpec } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-fastp-');
afterAll(() => dir.remove());

interface FastpSummary {
  total_reads: number;
  total_bases: number;
  q20_bases: number;
  q30_bases: number;
  gc_content: number;
}

function fastp(path: string): FastpSummary {
  const json = `${path}.fastp.json`;
  execFileSync('fastp', ['-A', '-Q', '-L', '-G', '-w', '1', '-i', path, '-j', json, '-h', `${path}.fastp.html`], {
    stdio: 'ignore',
  });
  return (JSON.parse(readFileSync(json, 'utf8')) as { summary: { before_filtering: FastpSummary } }).summary
    .before_filtering;
}

const CASES: Array<[string, FastqSpec, boolean]> = [
  ['fixed 150 bp', { reads: 3000, length: 150, seed: 11 }, false],
  ['varied lengths with N', { reads: 3000, length: [1, 300], nRate: 0.05, seed: 12 }, false],
  ['full quality range, gzip', { reads: 2500, length: [20, 151], quality: [0, 93], seed: 13 }, true],
  [
    'adapters and duplicates, gzip',
    { reads: 2000, length: 100, seed: 14, duplicateRate: 0.3, adapter: { sequence: 'CTGTCTCTTATACACATCT', rate: 0.4 } },
    true,
  ],
];

describe('counts equal fastp', () => {
  for (const [title, spec, gz] of CASES) {
    it(title, async () => {
      const path = join(dir.path, `${title.replace(/\W+/g, '_')}.fq${gz ? '.gz' : ''}`);
      const text = fastqText(spec);
      writeFileSync(path, gz ? gzipSync(text) : text);
      const ref = fastp(path);
      const ours = (await runQc(path)).summary;
      expect(ours.total_reads).toBe(ref.total_reads);
      expect(ours.total_bases).toBe(ref.total_bases);
      expect(ours.q20_bases).toBe(ref.q20_bases);
      expect(ours.q30_bases).toBe(ref.q30_bases);
      // fastp prints six significant digits
      expect(Number(ours.gc_content.toPrecision(6))).toBe(ref.gc_content);
    });
  }

  it('lowercase and ambiguity codes count as fastp counts them', async () => {
    const path = join(dir.path, 'iupac.fq');
    const text = fastqText({ reads: 500, length: [10, 80], seed: 15 })
      .split('\n')
      .map((line, i) => (i % 4 === 1 ? line.replace(/A/g, 'a').replace(/CG/g, 'SW').replace(/TT/g, 'KM') : line))
      .join('\n');
    writeFileSync(path, text);
    const ref = fastp(path);
    const ours = (await runQc(path)).summary;
    expect([ours.total_reads, ours.total_bases, ours.q20_bases, ours.q30_bases]).toEqual([
      ref.total_reads,
      ref.total_bases,
      ref.q20_bases,
      ref.q30_bases,
    ]);
    expect(Number(ours.gc_content.toPrecision(6))).toBe(ref.gc_content);
  });
});
