/**
 * The shared workbook reader on packages shaped the way writers that cannot run here shape them
 * (Excel and Google Sheets: relative targets, a workbook part not at xl/workbook.xml, `x:`
 * prefixes as the .NET Open XML SDK writes, cells without `r`, inline and phonetic strings,
 * ISO and 1904 dates), and on hostile packages refused by the bound they exceed. The real
 * writers' files are read in test/integration/data/workbook-writers.test.ts.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeInflate } from '../../../src/service/sheets/sheet-reader';
import {
  resolvePartName,
  serialToIso,
  TableReadError,
  workbookAnnotationTable,
  XlsxWorkbook,
  type TableLimits,
} from '../../../src/shared/sheets';

/** A ZIP of deflated entries (the container every writer uses). */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = deflateRawSync(Buffer.from(text));
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Buffer.byteLength(text), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(Buffer.byteLength(text), 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(dir, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

function pkg(opts: { sheet: string; shared?: string; styles?: string; workbookPart?: string; prefix?: string }) {
  const wbPath = opts.workbookPart ?? 'xl/workbook.xml';
  const dir = wbPath.split('/').slice(0, -1).join('/');
  const p = opts.prefix ?? '';
  const xmlns = p ? `xmlns:${p.slice(0, -1)}="${NS}"` : `xmlns="${NS}"`;
  const entries: Record<string, string> = {
    '[Content_Types].xml': '<Types/>',
    '_rels/.rels': `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="/${wbPath}"/></Relationships>`,
    [wbPath]: `<${p}workbook ${xmlns} xmlns:r="${R}"><${p}workbookPr date1904="1"/><${p}sheets><${p}sheet name="Cover" sheetId="1" r:id="rId9"/><${p}sheet name="Lane" sheetId="2" r:id="rId1"/></${p}sheets></${p}workbook>`,
    [`${dir}/_rels/${wbPath.split('/').pop()}.rels`]: `<Relationships xmlns="${PKG}"><Relationship Id="rId9" Type="${R}/worksheet" Target="./worksheets/../worksheets/cover.xml"/><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/lane.xml"/><Relationship Id="rId2" Type="${R}/sharedStrings" Target="strings.xml"/><Relationship Id="rId3" Type="${R}/styles" Target="styles.xml"/><Relationship Id="rId4" Type="${R}/hyperlink" Target="https://example.org" TargetMode="External"/></Relationships>`,
    [`${dir}/worksheets/cover.xml`]: `<${p}worksheet ${xmlns}><${p}sheetData><${p}row r="1"><${p}c r="A1" t="inlineStr"><${p}is><${p}t>Cover: Sample Name</${p}t></${p}is></${p}c></${p}row></${p}sheetData></${p}worksheet>`,
    [`${dir}/worksheets/lane.xml`]: `<${p}worksheet ${xmlns}><${p}sheetData>${opts.sheet}</${p}sheetData></${p}worksheet>`,
  };
  if (opts.shared) entries[`${dir}/strings.xml`] = `<${p}sst ${xmlns}>${opts.shared}</${p}sst>`;
  if (opts.styles) entries[`${dir}/styles.xml`] = `<${p}styleSheet ${xmlns}>${opts.styles}</${p}styleSheet>`;
  return zip(entries);
}

const read = async (bytes: Buffer, limits: Partial<TableLimits> = {}) => {
  const wb = await XlsxWorkbook.open(bytes, nodeInflate, limits);
  return workbookAnnotationTable(wb);
};

const refusal = async (bytes: Buffer, limits: Partial<TableLimits> = {}) => {
  try {
    await read(bytes, limits);
  } catch (err) {
    expect(err).toBeInstanceOf(TableReadError);
    return { limit: (err as TableReadError).limit, message: (err as Error).message };
  }
  throw new Error('expected a refusal');
};

describe('the shared xlsx reader', () => {
  it('resolves relationship targets relative to their part or absolute (openpyxl)', () => {
    expect(resolvePartName('xl/workbook.xml', 'worksheets/sheet1.xml')).toBe('xl/worksheets/sheet1.xml');
    expect(resolvePartName('xl/workbook.xml', '/xl/worksheets/sheet1.xml')).toBe('xl/worksheets/sheet1.xml');
    expect(resolvePartName('xl/worksheets/sheet1.xml', '../comments1.xml')).toBe('xl/comments1.xml');
    expect(resolvePartName('', 'xl/workbook.xml')).toBe('xl/workbook.xml');
  });

  it('converts serial dates in both date systems, keeping times', () => {
    expect(serialToIso(45352, false)).toBe('2024-03-01');
    expect(serialToIso(1, false)).toBe('1900-01-01');
    expect(serialToIso(45352.5, false)).toBe('2024-03-01 12:00:00');
    expect(serialToIso(0.75, false)).toBe('18:00:00');
    expect(serialToIso(43890, true)).toBe('2024-03-01');
  });

  for (const prefix of ['', 'x:']) {
    it(`reads a package with a workbook part elsewhere, shared, rich, phonetic, inline, boolean, formula, ISO and 1904 date cells${prefix ? ' under x: prefixes' : ''}`, async () => {
      const p = prefix;
      const bytes = pkg({
        prefix,
        workbookPart: 'book/main.xml',
        shared: `<${p}si><${p}t>Sample Name</${p}t></${p}si><${p}si><${p}r><${p}t>Bar</${p}t></${p}r><${p}r><${p}t>code</${p}t></${p}r></${p}si><${p}si><${p}t>東京</${p}t><${p}rPh sb="0" eb="2"><${p}t>トウキョウ</${p}t></${p}rPh></${p}si>`,
        styles: `<${p}numFmts count="1"><${p}numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></${p}numFmts><${p}cellXfs count="3"><${p}xf numFmtId="0"/><${p}xf numFmtId="164"/><${p}xf numFmtId="2"/></${p}cellXfs>`,
        sheet:
          `<${p}row r="2"><${p}c t="s"><${p}v>0</${p}v></${p}c><${p}c t="s"><${p}v>1</${p}v></${p}c><${p}c t="inlineStr"><${p}is><${p}t>When</${p}t></${p}is></${p}c><${p}c t="inlineStr"><${p}is><${p}t>Flag</${p}t></${p}is></${p}c><${p}c t="inlineStr"><${p}is><${p}t>Sum</${p}t></${p}is></${p}c><${p}c t="inlineStr"><${p}is><${p}t>Stamp</${p}t></${p}is></${p}c><${p}c t="inlineStr"><${p}is><${p}t>Amount</${p}t></${p}is></${p}c></${p}row>` +
          `<${p}row r="3"><${p}c r="A3" t="s"><${p}v>2</${p}v></${p}c><${p}c r="B3" t="str"><${p}f>"AC"&amp;"GT"</${p}f><${p}v>ACGT</${p}v></${p}c><${p}c r="C3" s="1"><${p}v>43890</${p}v></${p}c><${p}c r="D3" t="b"><${p}v>1</${p}v></${p}c><${p}c r="E3"><${p}f>1+1</${p}f><${p}v>2</${p}v></${p}c><${p}c r="F3" t="d"><${p}v>2024-03-01T00:00:00Z</${p}v></${p}c><${p}c r="G3" s="2"><${p}v>0.10000000000000001</${p}v></${p}c></${p}row>`,
      });
      const { table, sheet } = await read(bytes);
      expect(sheet.path).toBe('book/worksheets/lane.xml');
      expect(table.sheet).toBe('Lane');
      expect(table.headerRow).toBe(2);
      expect(table.headers).toEqual(['Sample Name', 'Barcode', 'When', 'Flag', 'Sum', 'Stamp', 'Amount']);
      expect(table.rows).toEqual([
        {
          row: 3,
          values: {
            'Sample Name': '東京',
            Barcode: 'ACGT',
            When: '2024-03-01',
            Flag: 'TRUE',
            Sum: '2',
            Stamp: '2024-03-01',
            Amount: '0.1',
          },
        },
      ]);
    });
  }

  it('names the cell of an error value or of a formula saved without its value, only under a header', async () => {
    const header =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Sample Name</t></is></c><c r="B1" t="inlineStr"><is><t>Barcode</t></is></c></row>';
    const err = pkg({
      sheet: `${header}<row r="2"><c r="A2" t="inlineStr"><is><t>s1</t></is></c><c r="B2" t="e"><v>#N/A</v></c></row>`,
    });
    expect(await refusal(err)).toEqual({ limit: null, message: 'Cell B2 holds the error #N/A' });
    const formula = pkg({ sheet: `${header}<row r="2"><c r="B2"><f>A2&amp;"x"</f></c></row>` });
    expect((await refusal(formula)).message).toBe('Cell B2 holds a formula without a saved value');
    const outside = pkg({
      sheet: `${header}<row r="2"><c r="A2" t="inlineStr"><is><t>s1</t></is></c><c r="D2" t="e"><v>#REF!</v></c></row>`,
    });
    expect((await read(outside)).table.rows).toEqual([{ row: 2, values: { 'Sample Name': 's1', Barcode: '' } }]);
  });

  it('refuses hostile packages by the bound they exceed', async () => {
    const header =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Sample Name</t></is></c><c r="B1" t="inlineStr"><is><t>Barcode</t></is></c></row>';
    const far = pkg({ sheet: `${header}<row r="30000"><c r="A30000" t="inlineStr"><is><t>x</t></is></c></row>` });
    expect(await refusal(far)).toMatchObject({
      limit: 'maxRows',
      message: 'Cell A30000 on sheet "Lane" is in row 30,000; sheets may use at most 20,000 rows (the limit)',
    });
    const many = pkg({
      sheet: header + '<row r="2">' + '<c t="inlineStr"><is><t>x</t></is></c>'.repeat(50) + '</row>',
    });
    expect(await refusal(many, { maxCells: 40 })).toMatchObject({ limit: 'maxCells' });
    const strings = pkg({ sheet: header, shared: '<si><t>a</t></si>'.repeat(20) });
    expect(await refusal(strings, { maxSharedStrings: 10 })).toMatchObject({
      limit: 'maxSharedStrings',
      message: 'The workbook has more than 10 shared strings (the limit)',
    });
    const long = pkg({ sheet: `${header}<row r="2"><c t="inlineStr"><is><t>${'y'.repeat(40_000)}</t></is></c></row>` });
    expect(await refusal(long)).toMatchObject({ limit: 'maxCellChars' });
    const big = pkg({ sheet: header + '<row r="2"></row>'.repeat(100_000) });
    expect(await refusal(big, { maxPartBytes: 1_000_000 })).toMatchObject({ limit: 'maxPartBytes' });
    expect(await refusal(big, { maxFileBytes: 1_000 })).toMatchObject({ limit: 'maxFileBytes' });
    const entity = zip({
      '_rels/.rels': `<!DOCTYPE x [<!ENTITY a "aaaa">]><Relationships xmlns="${PKG}"/>`,
    });
    expect((await refusal(entity)).message).toMatch(/document type/);
    expect((await refusal(Buffer.from('PK\u0003\u0004 not really'))).message).toMatch(/not an \.xlsx workbook/);
  });
});
