/**
 * Quality encodings and tiny files against Debian's FastQC. Phred+64 (Illumina 1.3-1.7) and
 * Solexa+64 files are built as Cock et al. describe them (Nucleic Acids Research 38:1767, 2010,
 * "The Sanger FASTQ file format": Phred+64 is quality + 64, Solexa+64 runs from ';' = -5):
 * the encoding is found from the lowest quality character as FastQC finds it, a Phred+64 file
 * is refused with the reason unless asked to read it with offset 64, and then its Q20/Q30
 * equal fastp's on the same file converted by seqtk (`seqtk seq -Q64 -V`) and its quality
 * flags FastQC's. Files of 18 and 20 reads get FastQC's verdicts too, but for Per base sequence
 * quality, whose per-position quartiles differ from FastQC's on small files
 * (docs/service/qc-encodings.md says where and why).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { runCliToEnd } from '../../helpers/cli';
import { fastqcReport } from '../../helpers/fastqc-reference';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

vi.setConfig({ testTimeout: 120_000 });
const dir = tempDir('laneway-qc-encoding-');
afterAll(() => dir.remove());

/** A Phred+33 file's qualities moved to another offset (Phred+64: +31; qualities kept >= `floor`). */
function shifted(text: string, by: number, floor = 0): string {
  return text
    .split('\n')
    .map((l, i) =>
      i % 4 === 3
        ? [...l].map((c) => String.fromCharCode(Math.max(c.charCodeAt(0) - 33, floor) + 33 + by)).join('')
        : l,
    )
    .join('\n');
}

const fastqc = (path: string) => fastqcReport(path, dir.path);

describe('quality encodings, as FastQC finds them', () => {
  it('Phred+64 (Illumina 1.5): refused with the reason; read with offset 64 on request, as converted', async () => {
    const p33 = fastqText({ reads: 400, length: 60, seed: 11, quality: [2, 40] });
    const path = join(dir.path, 'illumina15.fq');
    writeFileSync(path, shifted(p33, 31, 2));
    const refused = await runCliToEnd(['qc', path]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Phred\+64 \(Illumina 1\.5; lowest quality character 'B'\)/);
    const ours = await runQc(path, { qualityEncoding: 'phred64' });
    const ref = fastqc(path);
    expect(ours.summary.encoding).toBe(ref.encoding);
    expect(ours.summary.quality_offset).toBe(64);
    // The same file converted to Phred+33 by seqtk, counted by fastp.
    const converted = join(dir.path, 'converted.fq');
    writeFileSync(converted, execFileSync('seqtk', ['seq', '-Q64', '-V', path]));
    const fp = join(dir.path, 'converted.fastp.json');
    execFileSync('fastp', ['-i', converted, '-A', '-Q', '-L', '-G', '-j', fp, '-h', '/dev/null'], { stdio: 'ignore' });
    const before = (JSON.parse(readFileSync(fp, 'utf8')) as { summary: { before_filtering: Record<string, number> } })
      .summary.before_filtering;
    expect([ours.summary.q20_bases, ours.summary.q30_bases]).toEqual([before.q20_bases, before.q30_bases]);
    const flag = (m: string) => ours.flags.find((f) => f.module === m)!.status;
    expect(flag('per_sequence_quality')).toBe(ref.verdicts.per_sequence_quality);
    expect(flag('per_base_quality')).toBe(ref.verdicts.per_base_quality);
  });

  it("Illumina 1.3 ('A' lowest) and Phred+33 named as FastQC names them; Solexa+64 told apart", async () => {
    const p33 = fastqText({ reads: 200, length: 50, seed: 12, quality: [1, 40] });
    const i13 = join(dir.path, 'illumina13.fq');
    writeFileSync(i13, shifted(p33, 31, 1));
    const sanger = join(dir.path, 'sanger.fq');
    writeFileSync(sanger, p33);
    for (const f of [i13, sanger]) {
      expect((await runQc(f, { qualityEncoding: 'phred64' })).summary.encoding).toBe(fastqc(f).encoding);
    }
    // Solexa+64: qualities -5 to 40, ';' to 'h'.
    const solexa = join(dir.path, 'solexa.fq');
    writeFileSync(solexa, shifted(p33, 31 - 5));
    const refused = await runCliToEnd(['qc', solexa]);
    expect(refused.stderr).toMatch(/Solexa\+64/);
    expect((await runQc(solexa, { qualityEncoding: 'phred64' })).summary.encoding).toBe('Solexa');
  });
});

describe('QC flags on tiny files, against FastQC', () => {
  for (const reads of [18, 20]) {
    it(`${reads} reads: FastQC's verdict module by module`, async () => {
      const path = join(dir.path, `tiny${reads}.fq`);
      writeFileSync(path, fastqText({ reads, length: 75, seed: 30 + reads, quality: [20, 40] }));
      const theirs = fastqc(path).verdicts;
      const ours = Object.fromEntries((await runQc(path)).flags.map((f) => [f.module, f.status]));
      // Every read of a tiny file is over 1% of it: FastQC fails "Overrepresented sequences", and so do we.
      expect(ours.overrepresented_sequences).toBe('fail');
      expect(ours).toEqual(theirs);
    });
  }
});
