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

  it('refuses inconsistent barcode designs: single with dual, UMI with none, different ends', () => {
    const mixed = check(sheet(['A', 'ACGTACGT'], ['B', 'TGCATGCA+AACCGGTT']));
    expect(mixed.errors[0]).toMatchObject({ row: 3, column: 'Barcode' });
    expect(mixed.errors[0]!.message).toMatch(/single and dual indexes are mixed/);
    const umi = check(sheet(['A', 'NNNACGTACNN'], ['B', 'TGCATGCA']));
    expect(umi.errors[0]!.message).toMatch(/TGCATGCA.*row 2 \(NNNXXXXXXNN\).*UMI positions/);
    const ends = check(sheet(['A', 'NNNACGTACNN'], ['B', 'NNNTGCATGNN...GGATCCNN']));
    expect(ends.errors[0]!.message).toMatch(/barcode ends/);
    const wrongPart = check(sheet(['A', 'ACGTA'], ['B', 'TGCATGCA']), { layout: 'NNNXNXXXXNN' });
    expect(wrongPart.errors[0]).toMatchObject({ row: 3, column: 'Barcode' });
    expect(wrongPart.errors[0]!.message).toMatch(/should have 5 bases/);
    expect(check(clean(), { layout: 'NNQX' }).errors[0]!.message).toMatch(/N \(UMI\) and X \(barcode\)/);
    expect(check(clean(), { layout: 'NNNXXXXXXXXNN...' }).errors).toEqual([]);
    expect(check(sheet(['A', 'ACGT+AACC']), { layout: 'NNNXXXXNN' }).errors[0]!.message).toMatch(/cannot be dual/);
  });

  it('accepts inline barcodes of mixed lengths and compares them where the read shows both', () => {
    // 6, 7 and 8 bases behind the same 3 UMI bases: each shorter barcode is compared with the
    // longer one's first bases, the positions a read of either sample shows.
    const mixed = check(sheet(['A', 'NNNACGTACNN'], ['B', 'NNNTGCATGANN'], ['C', 'NNNGATCCTAGNN']));
    expect(mixed.errors).toEqual([]);
    expect(mixed.design).toMatchObject({ kind: 'inline', segments: ["5'"], barcodeLength: 8 });
    expect(mixed.design!.layouts[0]).toEqual(['NNNXXXXXXXXNN', 'NNNXXXXXXXNN', 'NNNXXXXXXNN']);
    expect(mixed.design!.layout).toBe('NNNXXXXXXXXNN | NNNXXXXXXXNN | NNNXXXXXXNN');
    // A 6-base barcode that is the start of an 8-base one cannot be told apart.
    const prefix = check(sheet(['A', 'NNNACGTACNN'], ['B', 'NNNACGTACGTNN']), { mismatches: 0 });
    expect(prefix.errors[0]!.message).toMatch(
      /ACGTAC \(row 2, A\) and ACGTACGT \(row 3, B\) are 0 apart where they overlap/,
    );
    // The lane's layout stretches to each row's length.
    const option = check(sheet(['A', 'ACGTAC'], ['B', 'TGCATGCA']), { layout: 'NNNXXXXXXNN' });
    expect(option.errors).toEqual([]);
    expect(option.design!.barcodes.map((b) => b.parts[0]!.layout)).toEqual(['NNNXXXXXXNN', 'NNNXXXXXXXXNN']);
  });

  it("reads 3' barcodes and combinatorial 5'+3' pairs, checking each end on its own", () => {
    const three = check(sheet(['A', '...ACGTACNNNN'], ['B', '...TGCATGNNNN']));
    expect(three.errors).toEqual([]);
    expect(three.design).toMatchObject({ kind: 'inline', segments: ["3'"], layout: '...XXXXXXNNNN' });
    const pairs = check(
      sheet(
        ['A', 'NNNACGTACNN...GGATCCNNNN'],
        ['B', 'NNNACGTACNN...TTCGAANNNN'],
        ['C', 'NNNTGCATGNN...GGATCCNNNN'],
        ['D', 'NNNTGCATGNN...TTCGAANNNN'],
      ),
    );
    expect(pairs.errors).toEqual([]);
    expect(pairs.design).toMatchObject({ segments: ["5'", "3'"], layout: 'NNNXXXXXXNN...XXXXXXNNNN' });
    expect(pairs.design!.barcodes[1]!.barcode).toBe('ACGTAC...TTCGAA');
    const option = check(sheet(['A', 'ACGTAC...GGATCC'], ['B', 'TGCATG...TTCGAA']), {
      layout: 'NNNXXXXXXNN...XXXXXXNNNN',
    });
    expect(option.errors).toEqual([]);
    expect(option.design!.barcodes[0]!.parts.map((p) => p.layout)).toEqual(['NNNXXXXXXNN', 'XXXXXXNNNN']);
    expect(check(sheet(['A', 'ACGTAC']), { layout: 'NNNXXXXXXNN...XXXXXXNNNN' }).errors[0]!.message).toMatch(
      /needs both ends/,
    );
    const repeated = check(sheet(['A', 'NNNACGTACNN...GGATCCNNNN'], ['B', 'NNNACGTACNN...GGATCCNNNN']));
    expect(repeated.errors[0]!.message).toMatch(/repeats row 2/);
  });

  it('computes the most mismatches each segment allows, up to 2, and takes counts per index', () => {
    // i7s 5 apart allow 2; i5s 3 apart allow 1.
    const rows = sheet(['A', 'AAAAAAAA+ACGTACGT'], ['B', 'CCCCCAAA+ACGTATAA'], ['C', 'AAAAAAAA+GGGTACGA']);
    const r = check(rows);
    expect(r.errors).toEqual([]);
    expect(r.design).toMatchObject({ kind: 'index', segments: ['i7', 'i5'], dual: true });
    expect(r.maxMismatches).toEqual([2, 1]);
    expect(r.segmentMismatches).toEqual([1, 1]);
    expect(check(rows, { mismatches: [2, 1] }).errors).toEqual([]);
    const tooMany = check(rows, { mismatches: [2, 2] });
    expect(tooMany.errors[0]!.message).toMatch(
      /i5 indexes ACGTACGT \(row 2, A\) and ACGTATAA \(row 3, B\) are 3 apart/,
    );
    expect(check(clean(), { mismatches: 3 }).errors[0]!.message).toMatch(/Mismatches must be 0 to 2/);
    expect(check(sheet(['A', 'AAAAAAAA'], ['B', 'AAAACCCC']), { mismatches: 2 }).errors[0]!.message).toMatch(
      /are 4 apart: with 2 mismatches allowed a read could match both. Allow 1 mismatches/,
    );
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
