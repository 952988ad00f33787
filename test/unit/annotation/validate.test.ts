import { describe, expect, it } from 'vitest';
import type { AnnotationRow } from '../../../src/shared/annotation/columns';
import { validateAnnotation, type AnnotationOptions } from '../../../src/shared/annotation/validate';

const vocab = { organisms: ['Homo sapiens', 'Mus musculus'], categories: ['RNA', 'DNA'] };

/** Rows from [name, barcode, organism?, category?] tuples; row numbers start at 2. */
function sheet(...rows: Array<[string, string, string?, string?]>): AnnotationRow[] {
  return rows.map(([name, barcode, organism = 'Homo sapiens', category = 'RNA'], i) => ({
    row: i + 2,
    values: { 'Sample Name': name, Barcode: barcode, Organism: organism, Category: category },
  }));
}

function check(rows: AnnotationRow[], options: Partial<AnnotationOptions> = {}) {
  return validateAnnotation(rows, vocab, { kind: 'lane', ...options });
}

const clean = () => sheet(['A', 'ACGTACGT'], ['B', 'TGCATGCA'], ['C', 'GATCCTAG']);

describe('validateAnnotation', () => {
  it('accepts a clean sheet and allows one mismatch when barcodes are at least 3 apart', () => {
    const r = check(clean());
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.mismatches).toBe(1);
    expect(r.design).toMatchObject({ dual: false, layout: null, barcodeLength: 8 });
  });

  it('reports missing columns at the header row and missing values at their row', () => {
    const r = validateAnnotation([{ row: 2, values: { 'Sample Name': 'A', Barcode: 'ACGTACGT' } }], vocab, {
      kind: 'lane',
    });
    expect(r.errors).toContainEqual({ row: 1, column: 'Organism', message: 'The sheet has no "Organism" column' });
    expect(r.errors).toContainEqual({ row: 1, column: 'Category', message: 'The sheet has no "Category" column' });
    const blank = check(sheet(['', 'ACGTACGT'], ['B', ''], ['C', 'GATCCTAG', '', '']));
    expect(blank.errors).toEqual(
      expect.arrayContaining([
        { row: 2, column: 'Sample Name', message: 'Sample Name is required' },
        { row: 3, column: 'Barcode', message: 'Barcode is required' },
        { row: 4, column: 'Organism', message: 'Organism is required' },
        { row: 4, column: 'Category', message: 'Category is required' },
      ]),
    );
    expect(check([], { headers: ['Sample Name', 'Barcode', 'Organism', 'Category'] }).errors[0]?.message).toMatch(
      /no sample rows/,
    );
  });

  it('does not require a Barcode for sample sheets', () => {
    const rows = [{ row: 2, values: { 'Sample Name': 'A', Organism: 'Homo sapiens', Category: 'RNA' } }];
    expect(validateAnnotation(rows, vocab, { kind: 'sample' }).errors).toEqual([]);
  });

  it('refuses duplicate sample names (ignoring case) and names that cannot be file names', () => {
    const r = check(sheet(['A', 'ACGTACGT'], ['a', 'TGCATGCA'], ['x/y', 'GATCCTAG']));
    expect(r.errors).toContainEqual({ row: 3, column: 'Sample Name', message: 'Sample name "a" repeats row 2' });
    expect(r.errors.find((e) => e.row === 4)?.message).toMatch(/"x\/y" contains "\/"/);
  });

  it('refuses barcodes outside ACGTN and duplicate barcodes', () => {
    const r = check(sheet(['A', 'ACGTACGX'], ['B', 'TGCATGCA'], ['C', 'tgcatgca']));
    expect(r.errors).toContainEqual({
      row: 2,
      column: 'Barcode',
      message: 'Barcode "ACGTACGX" has characters outside A, C, G, T and N',
    });
    expect(r.errors).toContainEqual({ row: 4, column: 'Barcode', message: 'Barcode TGCATGCA repeats row 3' });
  });

  it('refuses inconsistent barcode layouts: lengths, single with dual, UMI positions', () => {
    const lengths = check(sheet(['A', 'ACGTACGT'], ['B', 'TGCATG']));
    expect(lengths.errors[0]).toMatchObject({ row: 3, column: 'Barcode' });
    expect(lengths.errors[0]!.message).toMatch(/does not match row 2.*layout differs/);
    const mixed = check(sheet(['A', 'ACGTACGT'], ['B', 'TGCATGCA+AACCGGTT']));
    expect(mixed.errors[0]!.message).toMatch(/single and dual indexes are mixed/);
    const umi = check(sheet(['A', 'NNNACGTACNN'], ['B', 'NNTGCATGNNN']));
    expect(umi.errors[0]!.message).toMatch(/NNXXXXXXNNN.*row 2 \(NNNXXXXXXNN\)/);
    const wrongPart = check(sheet(['A', 'ACGTAC'], ['B', 'TGCATGCA']), { layout: 'NNNXXXXXXNN' });
    expect(wrongPart.errors[0]).toMatchObject({ row: 3, column: 'Barcode' });
    expect(wrongPart.errors[0]!.message).toMatch(/should have 6 bases/);
    expect(check(clean(), { layout: 'NNQX' }).errors[0]!.message).toMatch(/N \(UMI\) and X \(barcode\)/);
  });

  it('reads inline layouts from the option or from full Ultraplex barcodes', () => {
    const option = check(sheet(['A', 'ACGTAC'], ['B', 'TGCATG']), { layout: 'NNNXXXXXXNN' });
    expect(option.errors).toEqual([]);
    expect(option.design).toMatchObject({ layout: 'NNNXXXXXXNN', barcodeLength: 6 });
    const full = check(sheet(['A', 'NNNACGTACNN'], ['B', 'NNNTGCATGNN']));
    expect(full.errors).toEqual([]);
    expect(full.design?.layout).toBe('NNNXXXXXXNN');
    expect(full.design?.barcodes.map((b) => b.barcode)).toEqual(['ACGTAC', 'TGCATG']);
  });

  it('refuses barcodes closer than the requested mismatches can separate, naming the pair and a fix', () => {
    const r = check(sheet(['A', 'ACGTACGT'], ['B', 'ACGTACGA'], ['C', 'GATCCTAG']), { mismatches: 1 });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ row: 3, column: 'Barcode' });
    expect(r.errors[0]!.message).toMatch(/ACGTACGT \(row 2, A\) and ACGTACGA \(row 3, B\) are 1 apart/);
    expect(r.errors[0]!.message).toMatch(/Allow 0 mismatches or change one barcode to differ in at least 3 positions/);
    expect(check(clean(), { mismatches: 2 }).errors[0]!.message).toMatch(/Mismatches must be 0 or 1/);
  });

  it('warns about close barcodes and falls back to exact matching', () => {
    const r = check(sheet(['A', 'ACGTACGT'], ['B', 'ACGTACCA'], ['C', 'GATCCTAG']));
    expect(r.errors).toEqual([]);
    expect(r.mismatches).toBe(0);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]!.message).toMatch(/ACGTACGT \(row 2, A\) and ACGTACCA \(row 3, B\) are only 2 apart/);
  });

  it('warns about short barcodes and reverse complements', () => {
    const short = check(sheet(['A', 'ACGTA'], ['B', 'TGCAT'], ['C', 'GGGCC']));
    expect(short.warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/5 bases are short/));
    const rc = check(sheet(['A', 'AACCGGTA'], ['B', 'TACCGGTT'], ['C', 'GATCCTAG']));
    expect(rc.warnings).toContainEqual({
      row: 3,
      column: 'Barcode',
      message: 'Barcode TACCGGTT is the reverse complement of AACCGGTA (row 2): check the index orientation',
    });
  });

  it('refuses organisms and categories outside the vocabularies, ignoring case', () => {
    const r = check(sheet(['A', 'ACGTACGT', 'homo sapiens', 'rna'], ['B', 'TGCATGCA', 'Yeti', 'Protein']));
    expect(r.errors).toEqual([
      { row: 3, column: 'Category', message: 'Category "Protein" is not in the vocabulary (RNA, DNA)' },
      {
        row: 3,
        column: 'Organism',
        message: 'Organism "Yeti" is not in the vocabulary (Homo sapiens, Mus musculus)',
      },
    ]);
  });

  it('handles dual indexes as one barcode across both reads', () => {
    const r = check(sheet(['A', 'ACGTACGT+AACCGGTT'], ['B', 'TGCATGCA+GGTTAACC']));
    expect(r.errors).toEqual([]);
    expect(r.design).toMatchObject({ dual: true, layout: null, barcodeLength: 16 });
    expect(check(sheet(['A', 'NNACGT+AACC'])).errors[0]!.message).toMatch(/cannot be dual/);
    expect(check(sheet(['A', 'ACGT+'])).errors[0]!.message).toMatch(/not a barcode or a dual index/);
  });
});
