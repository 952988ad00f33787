/** The trimming rules on hand-made reads: cutadapt's quality algorithm and adapter matching. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterBytes, adapterCut } from '../../../src/service/tools/trim/adapter-match';
import { detectAdapter } from '../../../src/service/tools/trim/auto-adapter';
import { qualityCut } from '../../../src/service/tools/trim/quality-trim';
import { trimParameters } from '../../../src/service/tools/trim/trim-parameters';
import { resolveAdapter } from '../../../src/service/tools/trim/trim-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-trim-unit-');
afterAll(() => dir.remove());

const q = (scores: number[]) => Buffer.from(scores.map((s) => s + 33));
const OPTS = { errorRate: 0.1, minOverlap: 3 };
const cut = (read: string, adapter: string) =>
  adapterCut(Buffer.from(read), 0, read.length, adapterBytes(adapter), OPTS);

describe("3' quality trimming (BWA / cutadapt -q)", () => {
  it('cuts where the running sum of cutoff - quality peaks', () => {
    expect(qualityCut(q([40, 40, 40, 40]), 0, 4, 20)).toBe(4);
    expect(qualityCut(q([40, 40, 10, 10]), 0, 4, 20)).toBe(2);
    // a single good base inside a bad tail does not stop the trimming: 5, 25, 5 sums to 15, -5+15=10 ...
    expect(qualityCut(q([40, 40, 5, 25, 5]), 0, 5, 20)).toBe(2);
    // cutadapt's documented example: 42 40 26 27 8 7 11 4 2 3 with cutoff 10 keeps 4 bases
    expect(qualityCut(q([42, 40, 26, 27, 8, 7, 11, 4, 2, 3]), 0, 10, 10)).toBe(4);
    expect(qualityCut(q([2, 2, 2]), 0, 3, 20)).toBe(0);
    expect(qualityCut(q([2, 2, 2]), 0, 3, 0)).toBe(3);
  });
});

describe("3' adapter matching without indels", () => {
  const A = 'AGATCGGAAGAGCACACGTC';
  it("finds a whole adapter inside the read and a partial one at the 3' end", () => {
    expect(cut(`TTTTTTTTTT${A}GGGG`, A)).toBe(10);
    expect(cut(`TTTTTTTTTT${A.slice(0, 7)}`, A)).toBe(10);
    expect(cut(`TTTTTTTTTT${A.slice(0, 3)}`, A)).toBe(10);
    expect(cut(`TTTTTTTTTT${A.slice(0, 2)}`, A)).toBe(12);
    expect(cut('TTTTTTTTTTTTTTTT', A)).toBe(16);
  });

  it('allows floor(0.1 x overlap) mismatches', () => {
    const oneOff = `${A.slice(0, 5)}T${A.slice(6)}`;
    expect(cut(`CCCCCCCCCC${oneOff}`, A)).toBe(10);
    const twoOff = `${A.slice(0, 5)}TT${A.slice(7)}`;
    expect(cut(`CCCCCCCCCC${twoOff}`, A)).toBe(10);
    const threeOff = `${A.slice(0, 3)}CAT${A.slice(6)}`;
    expect(cut(`CCCCCCCCCC${threeOff}`, A)).toBe(30);
    // a 9-base partial match must be exact
    expect(cut(`CCCCCCCCCC${A.slice(0, 4)}G${A.slice(5, 9)}`, A)).toBe(19);
  });

  it('treats N in the adapter as a wildcard and N in the read as a mismatch', () => {
    expect(cut('CCCCCCCCCCAGATC', 'AGNTC')).toBe(10);
    expect(cut('CCCCCCCCCCAGNTCC', 'AGATCC')).toBe(16);
  });
});

describe('adapter choice and parameters', () => {
  it('detects the most frequent known adapter, or none', async () => {
    const withNextera = join(dir.path, 'nextera.fq');
    writeFileSync(
      withNextera,
      fastqText({ reads: 400, length: 80, seed: 3, adapter: { sequence: 'CTGTCTCTTATACACATCT', rate: 0.3 } }),
    );
    expect((await detectAdapter(withNextera)).adapter?.name).toBe('Nextera Transposase Sequence');
    const clean = join(dir.path, 'clean.fq');
    writeFileSync(clean, fastqText({ reads: 400, length: 80, seed: 4 }));
    expect((await detectAdapter(clean)).adapter).toBeNull();
    expect(await resolveAdapter('auto', withNextera)).toMatchObject({
      source: 'auto',
      sequence: 'CTGTCTCTTATACACATCT',
    });
    expect(await resolveAdapter('none', withNextera)).toBeNull();
    expect(await resolveAdapter('illumina universal adapter', clean)).toMatchObject({ source: 'known' });
    expect(await resolveAdapter('Illumina TruSeq', clean)).toMatchObject({
      name: 'Illumina Universal Adapter',
      source: 'known',
    });
    expect(await resolveAdapter('nextera', clean)).toMatchObject({ sequence: 'CTGTCTCTTATACACATCT' });
    expect(await resolveAdapter('', withNextera)).toMatchObject({ source: 'auto' });
    expect(await resolveAdapter('acgtn', clean)).toEqual({ name: 'custom', sequence: 'ACGTN', source: 'given' });
    await expect(resolveAdapter('not-dna', clean)).rejects.toThrow(/not auto, none/);
  });

  it('applies defaults and rejects out-of-range values by name', () => {
    expect(trimParameters({})).toEqual({
      adapter: 'auto',
      adapter2: '',
      qualityCutoff: 20,
      minLength: 20,
      errorRate: 0.1,
      minOverlap: 3,
      compress: true,
    });
    // An empty adapter2 means read 2's own adapter (resolved per sample), never read 1's.
    expect(trimParameters({ adapter: 'none', adapter2: '' })).toMatchObject({ adapter: 'none', adapter2: '' });
    expect(trimParameters({ adapter: 'ACGT', min_length: '30', compress: false })).toMatchObject({
      adapter2: '',
      minLength: 30,
      compress: false,
    });
    expect(() => trimParameters({ quality_cutoff: 2.5 })).toThrow(/quality_cutoff must be an integer/);
    expect(() => trimParameters({ error_rate: 0.9 })).toThrow(/error_rate must be a number from 0 to 0.5/);
    expect(() => trimParameters({ min_length: -1 })).toThrow(/min_length/);
  });
});
