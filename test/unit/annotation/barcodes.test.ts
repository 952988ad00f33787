import { describe, expect, it } from 'vitest';
import {
  barcodeDistance,
  barcodePart,
  closestPair,
  hammingDistance,
  layoutOfBarcode,
  maxSafeMismatches,
  parseDualIndex,
  parseLayout,
  reverseComplement,
} from '../../../src/shared/annotation/barcodes';
import { locateColumns, namedColumn, normalizeHeader, toEntries } from '../../../src/shared/annotation/columns';
import { demuxFileName, fileNameProblem } from '../../../src/shared/annotation/names';

describe('barcode arithmetic', () => {
  it('counts Hamming distance, with a length difference counted as mismatches', () => {
    expect(hammingDistance('ACGT', 'ACGT')).toBe(0);
    expect(hammingDistance('ACGT', 'ACCA')).toBe(2);
    expect(hammingDistance('ACGT', 'ACGTAA')).toBe(2);
    expect(barcodeDistance('ACGT+TTGA', 'ACGA+TTGC')).toBe(2);
  });

  it('reverse-complements single and dual indexes', () => {
    expect(reverseComplement('AACGTN')).toBe('NACGTT');
    expect(reverseComplement('AAC+GGT')).toBe('GTT+ACC');
  });

  it('parses dual indexes', () => {
    expect(parseDualIndex('ACGT+TTGA')).toEqual({ i7: 'ACGT', i5: 'TTGA' });
    expect(parseDualIndex('ACGTACGT')).toEqual({ i7: 'ACGTACGT', i5: null });
  });

  it('parses Ultraplex layouts and full inline barcodes', () => {
    expect(parseLayout('nnnXXXXXnn')).toEqual({
      pattern: 'NNNXXXXXNN',
      barcodePositions: [3, 4, 5, 6, 7],
      umiPositions: [0, 1, 2, 8, 9],
    });
    expect(parseLayout('NNNN')).toBeNull();
    expect(parseLayout('NNXAX')).toBeNull();
    expect(layoutOfBarcode('NNNACGTANN')).toBe('NNNXXXXXNN');
    expect(barcodePart('NNNACGTANN')).toBe('ACGTA');
  });

  it('derives the largest safe mismatch count from the minimum distance', () => {
    expect([1, 2, 3, 4, 5].map(maxSafeMismatches)).toEqual([0, 0, 1, 1, 2]);
    expect(closestPair(['AAAA', 'CCCC', 'AAAC'])).toEqual({ a: 0, b: 2, distance: 1 });
  });
});

describe('annotation columns and names', () => {
  it('matches headers regardless of case, spacing and required marks', () => {
    expect(normalizeHeader(' Sample  Name * ')).toBe('samplename');
    expect(namedColumn('SAMPLE_NAME')).toBe('Sample Name');
    expect(namedColumn('barcode (required)')).toBe('Barcode');
    expect(namedColumn('Tissue')).toBeNull();
    expect(locateColumns(['sample name', 'BARCODE', 'organism', 'Category', 'Tissue'])).toEqual({
      'Sample Name': 'sample name',
      Barcode: 'BARCODE',
      Organism: 'organism',
      Category: 'Category',
    });
  });

  it('turns rows into entries with metadata', () => {
    const [e] = toEntries([
      { row: 2, values: { 'sample name': ' A1 ', barcode: 'acgt acgt', Organism: 'Mus musculus', Tissue: 'liver' } },
    ]);
    expect(e).toMatchObject({ row: 2, sampleName: 'A1', barcode: 'ACGTACGT', organism: 'Mus musculus' });
    expect(e!.metadata).toEqual({ Tissue: 'liver', organism: 'Mus musculus' });
  });

  it('refuses sample names that cannot be file names', () => {
    for (const bad of [
      'a/b',
      'a\\b',
      'x:y',
      '..',
      '.hidden',
      'name.',
      'CON',
      'tab\there',
      '-x',
      'a b',
      'Ünï',
      'Undetermined',
      'a'.repeat(101),
    ]) {
      expect(fileNameProblem(bad), bad).not.toBeNull();
    }
    for (const good of ['S01', 'liver_rep-2', 'Sample1.a', '1_b']) expect(fileNameProblem(good), good).toBeNull();
    expect(fileNameProblem('a b')).toBe('contains " ": use letters, digits, dot, dash and underscore only');
    expect(demuxFileName('S1', 2, true, true)).toBe('S1_R2.fastq.gz');
    expect(demuxFileName('S1', 1, false, false)).toBe('S1.fastq');
  });
});
