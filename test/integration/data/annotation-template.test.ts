import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { validateAnnotation } from '../../../src/shared/annotation/validate';

interface Validation {
  type: string;
  formulae: unknown[];
  allowBlank?: boolean;
}

describe('vocabularies and annotation templates (opened with exceljs)', () => {
  const suite = adminSuite('alice');
  let organisms: Array<{ name: string }>;
  let categories: Array<{ name: string }>;
  const get = (path: string) => suite.service.api(path, { headers: { authorization: `Bearer ${suite.admin.token}` } });

  it('serves the vocabularies and the metadata fields with descriptions', async () => {
    organisms = (await (await get('/api/organisms')).json()) as typeof organisms;
    categories = (await (await get('/api/categories')).json()) as typeof categories;
    expect(organisms.map((o) => o.name)).toContain('Homo sapiens');
    expect(organisms[0]).toMatchObject({ name: 'Homo sapiens', common_name: 'human', taxonomy_id: 9606 });
    expect(categories.map((c) => c.name)).toContain('Total RNA');
    const fields = (await (await get('/api/metadata-fields')).json()) as Array<Record<string, unknown>>;
    expect(fields.filter((f) => f.required).map((f) => f.label)).toEqual([
      'Sample Name',
      'Barcode',
      'Organism',
      'Category',
    ]);
    for (const f of fields) expect(String(f.description).length).toBeGreaterThan(5);
    expect((await suite.service.api('/api/organisms')).status).toBe(401);
  });

  for (const kind of ['sample', 'lane'] as const) {
    it(`builds the ${kind} template: required columns marked, list validation, descriptions, examples`, async () => {
      const res = await get(`/api/annotation/${kind}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers.get('content-disposition')).toContain(`laneway-${kind}-annotation-template.xlsx`);
      const bytes = Buffer.from(await res.arrayBuffer());
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(bytes as never);
      expect(wb.worksheets.map((w) => w.name)).toEqual([
        kind === 'lane' ? 'Lane' : 'Samples',
        'Examples',
        'Field descriptions',
        'Lists',
      ]);
      const sheet = wb.worksheets[0]!;
      const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
      const required =
        kind === 'lane'
          ? ['Sample Name *', 'Barcode *', 'Organism *', 'Category *']
          : ['Sample Name *', 'Organism *', 'Category *'];
      expect(headers.slice(0, required.length)).toEqual(required);
      expect(headers).toContain('Tissue');
      expect(headers.filter((h) => h.endsWith('*'))).toEqual(required);
      if (kind === 'sample') expect(headers.some((h) => h.startsWith('Barcode'))).toBe(false);
      for (let i = 1; i <= required.length; i++) {
        const cell = sheet.getRow(1).getCell(i);
        expect(cell.font?.bold).toBe(true);
        expect(String(cell.note ?? '')).toMatch(/^Required\./);
      }
      // List validation from the vocabularies, through the Lists sheet.
      const col = (label: string) => String.fromCharCode(65 + headers.indexOf(label));
      const dv = (address: string) =>
        (sheet as unknown as { dataValidations: { find(a: string): Validation | undefined } }).dataValidations.find(
          address,
        );
      const org = dv(`${col('Organism *')}2`);
      expect(org?.type).toBe('list');
      expect(org?.formulae[0]).toBe(`Lists!$A$2:$A$${organisms.length + 1}`);
      expect(dv(`${col('Category *')}500`)?.formulae[0]).toBe(`Lists!$B$2:$B$${categories.length + 1}`);
      expect(dv(`${col('Sample Name *')}2`)?.type).toBe('textLength');
      const lists = wb.getWorksheet('Lists')!;
      const listed = (c: number) =>
        lists
          .getColumn(c)
          .values.slice(2)
          .filter((v) => v !== undefined && v !== null)
          .map(String);
      expect(listed(1)).toEqual(organisms.map((o) => o.name));
      expect(listed(2)).toEqual(categories.map((c) => c.name));
      // Descriptions and validation rules for every column.
      const desc = wb.getWorksheet('Field descriptions')!;
      expect((desc.getRow(1).values as unknown[]).slice(1)).toEqual([
        'Column',
        'Required',
        'Description',
        'Validation rule',
        'Example',
      ]);
      const described = new Map<string, unknown[]>();
      desc.eachRow((row, n) => {
        if (n > 1) described.set(String(row.getCell(1).value), row.values as unknown[]);
      });
      for (const h of headers) {
        const row = described.get(h);
        expect(row, h).toBeDefined();
        expect(String(row![3]).length, h).toBeGreaterThan(5);
        expect(String(row![4]).length, h).toBeGreaterThan(3);
      }
      // Example rows that pass the annotation rules themselves.
      const examples = await readSheet(bytes, 'template.xlsx');
      expect(examples.sheet).toBe(kind === 'lane' ? 'Lane' : 'Samples');
      expect(examples.rows).toEqual([]);
      const ex = wb.getWorksheet('Examples')!;
      expect(ex.rowCount).toBe(kind === 'lane' ? 4 : 3);
      const exBook = new ExcelJS.Workbook();
      const copy = exBook.addWorksheet('S');
      ex.eachRow((row) => copy.addRow((row.values as unknown[]).slice(1)));
      const exBytes = Buffer.from(await exBook.xlsx.writeBuffer());
      const read = await readSheet(exBytes, 'examples.xlsx');
      const report = validateAnnotation(
        read.rows,
        { organisms: organisms.map((o) => o.name), categories: categories.map((c) => c.name) },
        { kind, headers: read.headers },
      );
      expect(report.errors).toEqual([]);
    });
  }
});
