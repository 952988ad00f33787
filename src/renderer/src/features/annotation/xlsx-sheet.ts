/**
 * Reads the annotation sheet out of an .xlsx workbook and writes an edited grid back into the
 * same workbook: only the sheet's cells are replaced, so the template's list validations,
 * descriptions, other sheets and styles survive. Reading is the service's own reader
 * (src/shared/sheets: the same bounds, the same choice of sheet and header row, every common
 * writer's packaging) on the browser's inflate. A grid that did not come from a workbook (CSV,
 * paste, a new sheet) is laid into the service's lane template first (intoWorkbook), so every
 * new workbook the editor saves is the service's own, with its lists and validations: there is
 * one writer of new workbooks, the service's.
 */
import { namedColumn, normalizeHeader } from '../../../../shared/annotation';
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

/** A grid with the workbook it is written into. */
export interface WorkbookData extends SheetData {
  source: WorkbookSource;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * The sheet row of the grid's first row: right under the headers, so a title above them moves
 * every row number as it does in the spreadsheet and in the service's messages.
 */
export function firstSheetRow(source: unknown): number {
  return ((source as WorkbookSource | null)?.headerRow ?? 1) + 1;
}

/**
 * Reads the sheet holding the annotation table (the first with a Sample Name header row, as the
 * service chooses it). Rows keep their sheet positions: row i of the grid is sheet row
 * headerRow + 1 + i, blank rows included, so saving changes no row number.
 */
export async function readXlsx(bytes: Uint8Array, limits: Partial<TableLimits> = {}): Promise<WorkbookData> {
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
function sheetColumn(src: WorkbookSource, i: number): number {
  return src.columns[i] ?? Math.max(0, ...src.columns) + (i - src.columns.length) + 1;
}

/** The sheet's cells: the rows above the headers as they were, the headers, the grid's rows. */
function sheetDataXml(p: string, headers: string[], rows: string[][], src: WorkbookSource): string {
  const { headerRow } = src;
  const lines: string[] = [];
  src.preamble.forEach((cells, k) => {
    const xml = [...cells.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([c, v]) => cell(p, `${columnName(c)}${k + 1}`, v, null))
      .join('');
    if (xml) lines.push(`<${p}row r="${k + 1}">${xml}</${p}row>`);
  });
  [headers, ...rows].forEach((values, r) => {
    const styles = r === 0 ? src.headerStyles : src.rowStyles;
    const n = headerRow + r;
    const cells = values
      .map((v, i) => {
        const c = sheetColumn(src, i);
        return cell(p, `${columnName(c)}${n}`, v ?? '', styles.get(c));
      })
      .join('');
    lines.push(`<${p}row r="${n}">${cells}</${p}row>`);
  });
  return `<${p}sheetData>${lines.join('')}</${p}sheetData>`;
}

/** The key a header is matched by: the named column it stands for, or its comparison form. */
const headerKey = (h: string) => namedColumn(h) ?? normalizeHeader(h);

/**
 * Lays a grid without a workbook into a workbook's table (the service's template): each column
 * under the header that names the same column, wherever the grid has it; the template's
 * columns the grid lacks stay empty; the grid's columns the template lacks go after its last
 * column with their own header.
 */
export function intoWorkbook(template: WorkbookData, headers: string[], rows: string[][]): WorkbookData {
  const keys = template.headers.map(headerKey);
  const out = [...template.headers];
  const taken = new Set<number>();
  const target = headers.map((h) => {
    const at = keys.findIndex((k, i) => k === headerKey(h) && !taken.has(i));
    if (at >= 0) {
      taken.add(at);
      return at;
    }
    out.push(h);
    return out.length - 1;
  });
  const laid = rows.map((r) => {
    const values = out.map(() => '');
    target.forEach((to, from) => (values[to] = r[from] ?? ''));
    return values;
  });
  return { headers: out, rows: laid, source: template.source };
}

/** Writes the grid back into its workbook, replacing only the sheet's cells; returns the .xlsx bytes. */
export function writeXlsx(data: WorkbookData): Uint8Array {
  const { headers, rows, source } = data;
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
