import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { templateBytes } from '../../../src/service/sheets/template-workbook';
import { annotationVocabulary, loadVocabularies } from '../../../src/service/vocabularies/vocabularies';
import { validateAnnotation } from '../../../src/shared/annotation/validate';

describe('the lane template, filled in, reads back through the sheet reader and the rules', () => {
  it('picks the fill-in sheet, not the examples or descriptions, and validates clean rows', async () => {
    const vocab = loadVocabularies();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await templateBytes('lane', vocab)) as unknown as ArrayBuffer);
    const fill = wb.worksheets[0]!;
    const headers = (fill.getRow(1).values as unknown[]).slice(1).map(String);
    const at = (label: string) => headers.findIndex((h) => h.replace(' *', '') === label) + 1;
    const organism = vocab.organisms[0]!.name;
    const category = vocab.categories[0]!.name;
    const rows = [
      ['liver_1', 'ACGTACGT'],
      ['liver_2', 'TGCATGCA'],
      ['liver_3', 'GATCCTAG'],
    ];
    rows.forEach(([name, barcode], i) => {
      const row = fill.getRow(i + 2);
      row.getCell(at('Sample Name')).value = name!;
      row.getCell(at('Barcode')).value = barcode!;
      row.getCell(at('Organism')).value = organism;
      row.getCell(at('Category')).value = category;
    });
    const read = await readSheet(Buffer.from(await wb.xlsx.writeBuffer()), 'lane.xlsx');
    expect(read.sheet).toBe(fill.name);
    expect(read.rows.map((r) => r.row)).toEqual([2, 3, 4]);
    const report = validateAnnotation(read.rows, annotationVocabulary(vocab), { kind: 'lane', headers: read.headers });
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.entries.map((e) => [e.sampleName, e.barcode, e.organism, e.category])).toEqual(
      rows.map(([n, b]) => [n, b, organism, category]),
    );
  });

  it('an empty template is a clear error, not a crash', async () => {
    const vocab = loadVocabularies();
    const read = await readSheet(await templateBytes('lane', vocab), 'lane.xlsx');
    expect(read.rows).toEqual([]);
    const report = validateAnnotation(read.rows, annotationVocabulary(vocab), { kind: 'lane', headers: read.headers });
    expect(report.errors).toEqual([{ row: 2, column: 'Sample Name', message: 'The sheet has no sample rows' }]);
  });
});
