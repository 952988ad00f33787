import { describe, expect, it } from 'vitest';
import { classifyFile, pairFastqs, parseFastqName } from '../../../src/shared/fastq-naming';

describe('FASTQ naming', () => {
  it("lists bcl2fastq's and BCL Convert's samples in sample-sheet order (S1 first, Undetermined last), others by name", () => {
    const files = [
      'Kidney-1_S3_L001_R1_001.fastq.gz',
      'Undetermined_S0_L001_R1_001.fastq.gz',
      'Liver-2_S2_L002_R1_001.fastq.gz',
      'Kidney-10_S10_L001_R1_001.fastq.gz',
      'Liver-2_S2_L001_R1_001.fastq.gz',
      'Liver-1_S1_L001_R1_001.fastq.gz',
      'zeta_R1.fastq',
      'alpha_R1.fastq',
    ];
    expect(pairFastqs(files, (f) => f).samples.map((s) => s.name)).toEqual([
      'Liver-1',
      'Liver-2_L001',
      'Liver-2_L002',
      'Kidney-1',
      'Kidney-10',
      'Undetermined',
      'alpha',
      'zeta',
    ]);
  });

  it('parses BCL Convert names with and without lanes', () => {
    expect(parseFastqName('Liver-3_S12_L002_R2_001.fastq.gz')).toEqual({
      sample: 'Liver-3',
      sampleNumber: 12,
      lane: 2,
      read: 2,
      index: false,
    });
    expect(parseFastqName('A_S1_R1_001.fastq.gz')).toMatchObject({ sample: 'A', lane: null, read: 1 });
    expect(parseFastqName('A_S1_L001_I1_001.fastq.gz')).toMatchObject({ index: true, read: null });
    expect(parseFastqName('x_1.fq')).toMatchObject({ sample: 'x', read: 1 });
    expect(parseFastqName('notes.txt')).toBeNull();
  });

  it("parses Bases2Fastq's --split-lanes names (lane unpadded, no sample number) and keeps MGI's apart", () => {
    expect(parseFastqName('sample_0_L2_R1.fastq.gz')).toEqual({
      sample: 'sample_0',
      sampleNumber: null,
      lane: 2,
      read: 1,
      index: false,
    });
    expect(parseFastqName('Unassigned_L1_I2.fastq.gz')).toMatchObject({ sample: 'Unassigned', index: true });
    expect(parseFastqName('V350012345_L01_59_1.fq.gz')).toMatchObject({ sample: 'V350012345_59', lane: 1 });
    expect(parseFastqName('sample_0_R2.fastq.gz')).toMatchObject({ sample: 'sample_0', lane: null, read: 2 });
  });

  it('classifies what the service will refuse', () => {
    expect(classifyFile('a.fastq.ora')).toBe('fastq-ora');
    expect(classifyFile('a.BAM')).toBe('bam');
    expect(classifyFile('sheet.xlsx')).toBe('sheet');
    expect(classifyFile('a.fq.gz')).toBe('fastq');
  });

  it('pairs reads per sample and lane and reports what does not pair', () => {
    const files = [
      'A_S1_L001_R1_001.fastq.gz',
      'A_S1_L001_R2_001.fastq.gz',
      'A_S1_L002_R1_001.fastq.gz',
      'A_S1_L002_R2_001.fastq.gz',
      'B_S2_L001_R1_001.fastq.gz',
      'C_S3_L001_R2_001.fastq.gz',
      'B_S2_L001_I1_001.fastq.gz',
    ];
    const { samples, unpaired, indexReads } = pairFastqs(files, (f) => f);
    expect(samples.map((s) => [s.name, s.read1, s.read2])).toEqual([
      ['A_L001', 'A_S1_L001_R1_001.fastq.gz', 'A_S1_L001_R2_001.fastq.gz'],
      ['A_L002', 'A_S1_L002_R1_001.fastq.gz', 'A_S1_L002_R2_001.fastq.gz'],
      ['B', 'B_S2_L001_R1_001.fastq.gz', null],
    ]);
    expect(unpaired).toEqual(['C_S3_L001_R2_001.fastq.gz']);
    expect(indexReads).toEqual(['B_S2_L001_I1_001.fastq.gz']);
  });
});
