import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readSheet, SheetReadError } from '../../../src/service/sheets/sheet-reader';
import { openpyxlNew, pandasCsv, type WriterRow } from '../../helpers/sheet-writers';
import { tempDir } from '../../helpers/temp';

async function workbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('readSheet: xlsx', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('keeps samples and columns named after inherited members, and refuses a __proto__ column (openpyxl, pandas)', async () => {
    // The names as labs' programs write them: a row with a computed key, since `{ __proto__: ... }`
    // in a literal would set the object's prototype instead of a column.
    const row = (name: string, extra: Record<string, string> = {}): WriterRow =>
      Object.assign({ 'Sample Name': name, Barcode: 'ACGTACGT', Organism: 'Homo sapiens', Category: 'RNA' }, extra);
    const names = ['constructor', 'toString', 'valueOf'];
    for (const [file, write] of [
      ['inherited.xlsx', (out: string, rows: WriterRow[]) => openpyxlNew(out, rows)],
      ['inherited.csv', (out: string, rows: WriterRow[]) => pandasCsv(out, rows)],
    ] as const) {
      const rows = names.map((n, i) => row(n, { constructor: `c${i}`, hasOwnProperty: `h${i}` }));
      rows.forEach((r, i) => (r.Barcode = ['ACGTACGT', 'TGCATGCA', 'GGTTCCAA'][i]!));
      const sheet = await readSheet(readFileSync(write(join(dir.path, file), rows)), file);
      expect(sheet.rows.map((r) => r.values['Sample Name'])).toEqual(names);
      expect(sheet.rows.map((r) => [r.values.constructor, r.values.hasOwnProperty])).toEqual([
        ['c0', 'h0'],
        ['c1', 'h1'],
        ['c2', 'h2'],
      ]);
      const proto = JSON.parse(JSON.stringify(row('S1')).replace(/}$/, ',"__proto__":"x"}')) as WriterRow;
      const refused = `proto-${file}`;
      await expect(readSheet(readFileSync(write(join(dir.path, refused), [proto])), refused)).rejects.toMatchObject({
        row: 1,
        column: 'E',
        message: 'Column "__proto__" cannot be kept: give it another name',
      });
    }
  });

  it('picks the sheet with the headers, keeps sheet row numbers and reads every cell kind', async () => {
    const buf = await workbook((wb) => {
      wb.addWorksheet('Field descriptions').addRows([
        ['Field', 'Description'],
        ['Sample Name', 'unique name'],
      ]);
      const ws = wb.addWorksheet('Samples');
      ws.addRow(['Lane 7 annotation']); // a title above the headers
      ws.addRow(['Sample Name *', 'Barcode *', 'Organism *', 'Category *', 'Replicate', 'Tissue']);
      ws.addRow(['S1', 'ACGTACGT', 'Homo sapiens', 'RNA', 1, { richText: [{ text: 'li' }, { text: 'ver' }] }]);
      ws.addRow([]); // an empty row is skipped, numbering continues
      ws.addRow(['S2', 'TGCATGCA', 'Mus musculus', 'DNA', { formula: '1+1', result: 2 }, '']);
    });
    const path = join(dir.path, 'lane.xlsx');
    writeFileSync(path, buf);
    const read = await readSheet(path, 'lane.xlsx');
    expect(read.sheet).toBe('Samples');
    expect(read.headers).toEqual(['Sample Name *', 'Barcode *', 'Organism *', 'Category *', 'Replicate', 'Tissue']);
    expect(read.rows).toEqual([
      {
        row: 3,
        values: {
          'Sample Name *': 'S1',
          'Barcode *': 'ACGTACGT',
          'Organism *': 'Homo sapiens',
          'Category *': 'RNA',
          Replicate: '1',
          Tissue: 'liver',
        },
      },
      {
        row: 5,
        values: {
          'Sample Name *': 'S2',
          'Barcode *': 'TGCATGCA',
          'Organism *': 'Mus musculus',
          'Category *': 'DNA',
          Replicate: '2',
          Tissue: '',
        },
      },
    ]);
    // The same from a buffer.
    expect((await readSheet(buf, 'lane.xlsx')).rows).toHaveLength(2);
  });

  it('answers clear errors for workbooks it cannot use', async () => {
    const noHeaders = await workbook((wb) => wb.addWorksheet('Data').addRow(['a', 'b']));
    await expect(readSheet(noHeaders, 'x.xlsx')).rejects.toThrow(
      /No sheet has a "Sample Name" header \(sheets: Data\)/,
    );
    const twice = await workbook((wb) => wb.addWorksheet('S').addRow(['Sample Name', 'Barcode', 'barcode']));
    await expect(readSheet(twice, 'x.xlsx')).rejects.toMatchObject({
      row: 1,
      column: 'C',
      message: 'Column "barcode" appears twice in the header',
    });
    const proto = await workbook((wb) => wb.addWorksheet('S').addRow(['Sample Name', 'Barcode', '__proto__']));
    await expect(readSheet(proto, 'x.xlsx')).rejects.toMatchObject({
      row: 1,
      column: 'C',
      message: 'Column "__proto__" cannot be kept: give it another name',
    });
    const broken = await workbook((wb) =>
      wb.addWorksheet('S').addRows([
        ['Sample Name', 'Barcode'],
        ['S1', { error: '#REF!' }],
      ]),
    );
    await expect(readSheet(broken, 'x.xlsx')).rejects.toMatchObject({
      name: 'TableReadError',
      row: 2,
      column: 'B',
      message: 'Cell B2 holds the error #REF!',
    });
    await expect(readSheet(Buffer.from('not a zip'), 'x.xlsx')).rejects.toThrow(/not an \.xlsx workbook/);
    await expect(readSheet(Buffer.from('x'), 'x.xls')).rejects.toThrow(/save it as \.xlsx or \.csv/);
    await expect(readSheet(Buffer.from('x'), 'x.pdf')).rejects.toBeInstanceOf(SheetReadError);
  });
});

describe('readSheet: csv', () => {
  it('reads RFC 4180 quoting: separators, doubled quotes and line breaks inside quotes', async () => {
    const csv =
      '\ufeffSample Name,Barcode,Organism,Category,Notes\r\n' +
      'S1,ACGTACGT,Homo sapiens,"RNA",plain\r\n' +
      '"S,2",TGCATGCA,Mus musculus,DNA,"said ""hi""\r\nand left"\r\n' +
      '\r\n' +
      'S3,GATCCTAG,Homo sapiens,RNA,\r\n';
    const read = await readSheet(Buffer.from(csv), 'lane.csv');
    expect(read.headers).toEqual(['Sample Name', 'Barcode', 'Organism', 'Category', 'Notes']);
    expect(read.rows.map((r) => [r.row, r.values['Sample Name'], r.values.Notes])).toEqual([
      [2, 'S1', 'plain'],
      [3, 'S,2', 'said "hi"\r\nand left'],
      [6, 'S3', ''],
    ]);
  });

  it('reads semicolon and tab separated sheets', async () => {
    const semi = await readSheet(Buffer.from('Sample Name;Barcode\nS1;"AC;GT"\n'), 'a.csv');
    expect(semi.rows[0]!.values).toEqual({ 'Sample Name': 'S1', Barcode: 'AC;GT' });
    const tabs = await readSheet(Buffer.from('Sample Name\tBarcode\nS1\tACGT\n'), 'a.tsv');
    expect(tabs.rows[0]!.values).toEqual({ 'Sample Name': 'S1', Barcode: 'ACGT' });
  });

  it('places unreadable CSV at its row and column', async () => {
    await expect(readSheet(Buffer.from('Sample Name,Barcode\nS1,"ACGT\n'), 'a.csv')).rejects.toMatchObject({
      row: 2,
      column: 'B',
      message: expect.stringMatching(/never closed/),
    });
    await expect(readSheet(Buffer.from('Sample Name,Barcode\nS1,"AC"GT\n'), 'a.csv')).rejects.toMatchObject({
      row: 2,
      message: expect.stringMatching(/text follows the closing quote/),
    });
    await expect(readSheet(Buffer.from('Name,Index\nS1,A\n'), 'a.csv')).rejects.toThrow(
      /no header row with "Sample Name"/,
    );
    await expect(readSheet(Buffer.from([0x50, 0x4b, 3, 4, 0]), 'a.csv')).rejects.toThrow(/workbook \(xlsx\)/);
  });
});
