import { describe, expect, it } from 'vitest';
import {
  detectSeparator,
  parseDelimited,
  parsePastedBlock,
  readDelimitedFile,
  TableReadError,
} from '../../../src/shared/sheets';

const fields = (text: string, sep?: ',' | ';' | '\t') =>
  parseDelimited(text, { separator: sep }).rows.map((r) => r.fields);

function utf16(text: string, endian: 'le' | 'be', bom: boolean): Uint8Array {
  const out = Buffer.alloc((text.length + (bom ? 1 : 0)) * 2);
  const units = (bom ? '\ufeff' : '') + text;
  for (let i = 0; i < units.length; i++) {
    if (endian === 'le') out.writeUInt16LE(units.charCodeAt(i), i * 2);
    else out.writeUInt16BE(units.charCodeAt(i), i * 2);
  }
  return out;
}

describe('the one delimited-text reader (src/shared/sheets)', () => {
  it('reads RFC 4180 quoting: separators, doubled quotes, CRLF and line breaks inside quotes, with line numbers', () => {
    const text = 'a,b,c\r\n"x,1","say ""hi""\r\nthen go",3\r\n\r\nlast,,\r\n';
    const t = parseDelimited(text);
    expect(t.separator).toBe(',');
    expect(t.rows).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x,1', 'say "hi"\r\nthen go', '3'] },
      { line: 4, fields: [''] },
      { line: 5, fields: ['last', '', ''] },
    ]);
  });

  it('detects semicolons (European Excel), tabs, and skips separator-less lines such as [Header]', () => {
    expect(fields('Sample Name;Barcode;Notes\nS1;ACGT;"2,5 µl; on ice"')).toEqual([
      ['Sample Name', 'Barcode', 'Notes'],
      ['S1', 'ACGT', '2,5 µl; on ice'],
    ]);
    expect(fields('a\tb,c\n1\t2,3\n')).toEqual([
      ['a', 'b,c'],
      ['1', '2,3'],
    ]);
    expect(detectSeparator('[Header]\nFileFormatVersion,2\n')).toBe(',');
    expect(detectSeparator('"a;b",c\n')).toBe(',');
    expect(fields('a\rb\r')).toEqual([['a'], ['b']]);
  });

  it('keeps a quote inside an unquoted field and refuses broken quoting with the row and column', () => {
    expect(fields('tube,5" vial\n')).toEqual([['tube', '5" vial']]);
    expect(() => fields('a,b\n1,"open\n')).toThrow(/Row 2: the quoted field in column 2 is never closed/);
    try {
      fields('a,b\n1,"AC"GT\n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TableReadError);
      expect(err).toMatchObject({ row: 2, column: 'B', limit: null });
      expect((err as Error).message).toMatch(/text follows the closing quote in column 2/);
    }
  });

  it('decodes UTF-8 with a BOM, UTF-16 LE/BE with and without a BOM (Excel "Unicode text"), and Windows-1252', () => {
    const text = 'Sample Name\tOrganism\r\nmaus_1\tMus musculus µ\r\n';
    const expected = [
      ['Sample Name', 'Organism'],
      ['maus_1', 'Mus musculus µ'],
    ];
    const read = (b: Uint8Array) => readDelimitedFile(b).rows.map((r) => r.fields);
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toEqual(expected);
    expect(read(utf16(text, 'le', true))).toEqual(expected);
    expect(read(utf16(text, 'be', true))).toEqual(expected);
    expect(read(utf16(text, 'le', false))).toEqual(expected);
    expect(read(Buffer.from(text, 'latin1'))).toEqual(expected);
    expect(() => read(Buffer.from([0x50, 0x4b, 3, 4, 0]))).toThrow(/workbook \(xlsx\)/);
    expect(() => read(Buffer.from([1, 2, 0, 3, 4, 5, 6]))).toThrow(/binary/);
  });

  it('names the bound a hostile table exceeds: columns, rows, cells, cell length, bytes', () => {
    const limit = (text: string, limits: object) => {
      try {
        parseDelimited(text, { limits });
      } catch (err) {
        return [(err as TableReadError).limit, (err as Error).message];
      }
      return null;
    };
    expect(limit(','.repeat(1_000_000), {})).toEqual(['maxColumns', 'Row 1 has more than 1,000 columns (the limit)']);
    expect(limit('a\n'.repeat(11), { maxRows: 10 })).toEqual([
      'maxRows',
      'The table has more than 10 rows (the limit)',
    ]);
    expect(limit('a,b\nc,d\n', { maxCells: 3 })?.[0]).toBe('maxCells');
    expect(limit(`x,${'y'.repeat(40_000)}`, {})?.[1]).toMatch(/40,000 characters is over the limit of 32,767/);
    expect(limit(`x,"${'y'.repeat(40_000)}"`, {})?.[0]).toBe('maxCellChars');
    expect(() => readDelimitedFile(new Uint8Array(21 * 1024 * 1024).fill(65))).toThrow(/over the limit of 20,971,520/);
  });

  it('pastes blocks from a grid (tabs, quoted multi-line cells) and from prose with a stray quote', () => {
    expect(parsePastedBlock('S1\tACGT\r\nS2\t"two\nlines"\r\n')).toEqual([
      ['S1', 'ACGT'],
      ['S2', 'two\nlines'],
    ]);
    expect(parsePastedBlock('a\t"b\nc\td\n')).toEqual([
      ['a', '"b'],
      ['c', 'd'],
    ]);
    expect(parsePastedBlock('S1,ACGT\nS2,TTTT')).toEqual([
      ['S1', 'ACGT'],
      ['S2', 'TTTT'],
    ]);
  });
});
