/**
 * Reads the annotation sheet out of an .xlsx workbook and writes an edited grid back into the
 * same workbook: only the sheet's cells are replaced, so the template's list validations,
 * descriptions, other sheets and styles survive. Reading is the service's own reader
 * (src/shared/sheets: the same bounds, the same choice of sheet and header row, every common
 * writer's packaging) on the browser's inflate. A grid that did not come from a workbook is
 * written as a new one, with list validation for Organism and Category from the vocabularies.
 */
import {
  columnName,
  TableReadError,
  workbookAnnotationTable,
  XlsxWorkbook,
  type TableLimits,
} from '../../../../shared/sheets';
import { browserInflate, writeZip } from './zip';

export interface WorkbookSource {
  entries: Map<string, Uint8Array>;
  sheetPath: string;
  /** The sheet row of the headers (1 when there is no title above them). */
  headerRow: number;
  /** Cells of the rows above the header row (a title), by row, kept to write back. */
  preamble: Array<Map<number, string>>;
  /** The 1-based sheet column of each header. */
  columns: number[];
  /** Style ids of the header cells and of the first data row's cells, by 1-based column. */
  headerStyles: Map<number, string>;
  rowStyles: Map<number, string>;
}

export interface SheetData {
  headers: string[];
  rows: string[][];
  source: WorkbookSource | null;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** 0 → `A` (zero-based column index). */
export function columnLetter(index: number): string {
  return columnName(index + 1);
}

/**
 * Reads the sheet holding the annotation table (the first with a Sample Name header row, as the
 * service chooses it). Rows keep their sheet positions: row i of the grid is sheet row
 * headerRow + 1 + i, blank rows included, so saving changes no row number.
 */
export async function readXlsx(bytes: Uint8Array, limits: Partial<TableLimits> = {}): Promise<SheetData> {
  const workbook = await XlsxWorkbook.open(bytes, browserInflate, limits);
  const { table, sheet } = await workbookAnnotationTable(workbook);
  const entries = new Map<string, Uint8Array>();
  for (const name of workbook.archive.names()) {
    if (name.endsWith('/')) continue;
    const data = await workbook.archive.read(name);
    if (data) entries.set(name, data);
  }
  const byRow = new Map(sheet.rows.map((r) => [r.row, r.cells]));
  const last = sheet.rows.reduce((m, r) => Math.max(m, r.row), table.headerRow);
  const rows: string[][] = [];
  for (let r = table.headerRow + 1; r <= last; r++) {
    const cells = byRow.get(r);
    rows.push(table.columns.map((c) => cells?.get(c) ?? ''));
  }
  while (rows.length && rows[rows.length - 1]!.every((v) => !v.trim())) rows.pop();
  const preamble: Array<Map<number, string>> = [];
  for (let r = 1; r < table.headerRow; r++) preamble.push(byRow.get(r) ?? new Map());
  return {
    headers: table.headers,
    rows,
    source: {
      entries,
      sheetPath: sheet.path,
      headerRow: table.headerRow,
      preamble,
      columns: table.columns,
      headerStyles: sheet.styles.get(table.headerRow) ?? new Map(),
      rowStyles: sheet.styles.get(table.headerRow + 1) ?? new Map(),
    },
  };
}

export { TableReadError };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cell(p: string, ref: string, value: string, style: string | null | undefined): string {
  const s = style ? ` s="${style}"` : '';
  if (value === '') return style ? `<${p}c r="${ref}"${s}/>` : '';
  return `<${p}c r="${ref}"${s} t="inlineStr"><${p}is><${p}t xml:space="preserve">${esc(value)}</${p}t></${p}is></${p}c>`;
}

/** The 1-based sheet column of the grid's column `i`: where it was read from, new ones after. */
function sheetColumn(src: WorkbookSource | null, i: number): number {
  if (!src) return i + 1;
  return src.columns[i] ?? Math.max(0, ...src.columns) + (i - src.columns.length) + 1;
}

/** The sheet's cells: the rows above the headers as they were, the headers, the grid's rows. */
function sheetDataXml(p: string, headers: string[], rows: string[][], src: WorkbookSource | null): string {
  const headerRow = src?.headerRow ?? 1;
  const lines: string[] = [];
  src?.preamble.forEach((cells, k) => {
    const xml = [...cells.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([c, v]) => cell(p, `${columnName(c)}${k + 1}`, v, null))
      .join('');
    if (xml) lines.push(`<${p}row r="${k + 1}">${xml}</${p}row>`);
  });
  [headers, ...rows].forEach((values, r) => {
    const styles = r === 0 ? src?.headerStyles : src?.rowStyles;
    const n = headerRow + r;
    const cells = values
      .map((v, i) => {
        const c = sheetColumn(src, i);
        return cell(p, `${columnName(c)}${n}`, v ?? '', styles?.get(c));
      })
      .join('');
    lines.push(`<${p}row r="${n}">${cells}</${p}row>`);
  });
  return `<${p}sheetData>${lines.join('')}</${p}sheetData>`;
}

/** Writes the grid back into its workbook (or a new one) and returns the .xlsx bytes. */
export function writeXlsx(data: SheetData, lists: Array<{ column: string; values: readonly string[] }>): Uint8Array {
  const { headers, rows, source } = data;
  if (source) {
    const entries = new Map(source.entries);
    let xml = dec.decode(entries.get(source.sheetPath)!);
    // Some writers prefix SpreadsheetML elements (`x:sheetData`); write ours the same way.
    const p = /<(\w+:)?sheetData[\s>/]/.exec(xml)?.[1] ?? '';
    const width = Math.max(1, ...headers.map((_, i) => sheetColumn(source, i)));
    const last = `${columnName(width)}${source.headerRow + rows.length}`;
    xml = xml.replace(new RegExp(`<${p}sheetData\\s*/>|<${p}sheetData[\\s>][\\s\\S]*?</${p}sheetData>`), () =>
      sheetDataXml(p, headers, rows, source),
    );
    xml = xml.replace(new RegExp(`<${p}dimension ref="[^"]*"\\s*/>`), `<${p}dimension ref="A1:${last}"/>`);
    entries.set(source.sheetPath, enc.encode(xml));
    // A calculation chain naming cells we rewrote makes Excel "repair" the file: drop it.
    const chain = [...entries.keys()].find((k) => /(^|\/)calcChain\.xml$/.test(k));
    if (chain) {
      entries.delete(chain);
      for (const part of entries.keys()) {
        if (part !== '[Content_Types].xml' && !part.endsWith('.rels')) continue;
        const text = dec.decode(entries.get(part)!);
        const cleaned = text.replace(/<Override[^>]*calcChain[^>]*\/>|<Relationship[^>]*calcChain[^>]*\/>/g, '');
        if (cleaned !== text) entries.set(part, enc.encode(cleaned));
      }
    }
    return writeZip(entries);
  }
  return writeZip(newWorkbook(headers, rows, lists));
}

function newWorkbook(headers: string[], rows: string[][], lists: Array<{ column: string; values: readonly string[] }>) {
  const used = lists.filter((l) => l.values.length && headers.includes(l.column));
  const validations = used
    .map((l, i) => {
      const col = columnLetter(headers.indexOf(l.column));
      const listCol = columnLetter(i);
      return `<dataValidation type="list" allowBlank="1" showErrorMessage="1" sqref="${col}2:${col}5000"><formula1>Lists!$${listCol}$1:$${listCol}$${l.values.length}</formula1></dataValidation>`;
    })
    .join('');
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const sheet1 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${ns} ${rns}><dimension ref="A1:${columnLetter(Math.max(0, headers.length - 1))}${rows.length + 1}"/>${sheetDataXml('', headers, rows, null)}${validations ? `<dataValidations count="${used.length}">${validations}</dataValidations>` : ''}</worksheet>`;
  const longest = Math.max(0, ...used.map((l) => l.values.length));
  const listRows = Array.from({ length: longest }, (_, r) => used.map((l) => l.values[r] ?? ''));
  const sheet2 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${ns}>${sheetDataXml('', listRows[0] ?? [], listRows.slice(1), null)}</worksheet>`;
  const m = new Map<string, Uint8Array>();
  const put = (name: string, s: string) => m.set(name, enc.encode(s));
  put(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  );
  put(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  put(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook ${ns} ${rns}><sheets><sheet name="Samples" sheetId="1" r:id="rId1"/><sheet name="Lists" sheetId="2" state="hidden" r:id="rId2"/></sheets></workbook>`,
  );
  put(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`,
  );
  put('xl/worksheets/sheet1.xml', sheet1);
  put('xl/worksheets/sheet2.xml', sheet2);
  return m;
}
