/**
 * Reads the annotation sheet out of an .xlsx workbook and writes an edited grid back into the
 * same workbook: only the sheet's cells are replaced, so the template's list validations,
 * descriptions, other sheets and styles survive. A grid that did not come from a workbook is
 * written as a new one, with list validation for Organism and Category from the vocabularies.
 */
import { namedColumn } from '../../../../shared/annotation';
import { readZip, writeZip } from './zip';

export interface WorkbookSource {
  entries: Map<string, Uint8Array>;
  sheetPath: string;
  /** Style ids of the header cells and of the first data row's cells, by column index. */
  headerStyles: Array<string | null>;
  rowStyles: Array<string | null>;
}

export interface SheetData {
  headers: string[];
  rows: string[][];
  source: WorkbookSource | null;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const parse = (bytes: Uint8Array) => new DOMParser().parseFromString(dec.decode(bytes), 'application/xml');
const all = (node: Document | Element, name: string) => [...node.getElementsByTagNameNS('*', name)];

/** `B12` → 1 (zero-based column index). */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref.replace(/\d+$/, '')) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** 1 → `B`. */
export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function text(el: Element): string {
  return all(el, 't')
    .map((t) => t.textContent ?? '')
    .join('');
}

function sheetPaths(entries: Map<string, Uint8Array>): string[] {
  const wb = entries.get('xl/workbook.xml');
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  if (!wb || !rels) throw new Error('This workbook has no sheets (xl/workbook.xml is missing)');
  const targets = new Map(
    all(parse(rels), 'Relationship').map((r) => [r.getAttribute('Id'), r.getAttribute('Target') ?? '']),
  );
  return all(parse(wb), 'sheet').map((s) => {
    const id =
      s.getAttribute('r:id') ??
      s.getAttributeNS('http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'id');
    const target = targets.get(id) ?? '';
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  });
}

function readCells(entries: Map<string, Uint8Array>, path: string, shared: string[]) {
  const doc = parse(entries.get(path)!);
  const grid: string[][] = [];
  const styles: Array<Array<string | null>> = [];
  for (const row of all(doc, 'row')) {
    const r = Number(row.getAttribute('r')) - 1;
    const cells: string[] = (grid[r] = []);
    const st: Array<string | null> = (styles[r] = []);
    all(row, 'c').forEach((c, i) => {
      const ref = c.getAttribute('r');
      const col = ref ? columnIndex(ref) : i;
      const type = c.getAttribute('t');
      const v = all(c, 'v')[0]?.textContent ?? '';
      st[col] = c.getAttribute('s');
      cells[col] =
        type === 's'
          ? (shared[Number(v)] ?? '')
          : type === 'inlineStr'
            ? text(c)
            : type === 'b'
              ? v === '1'
                ? 'TRUE'
                : 'FALSE'
              : v;
    });
  }
  return { grid, styles };
}

/** Reads the first sheet whose header row names a Sample Name column (else the first sheet). */
export async function readXlsx(bytes: Uint8Array): Promise<SheetData> {
  const entries = await readZip(bytes);
  const ssBytes = entries.get('xl/sharedStrings.xml');
  const shared = ssBytes ? all(parse(ssBytes), 'si').map(text) : [];
  const paths = sheetPaths(entries).filter((p) => entries.has(p));
  if (paths.length === 0) throw new Error('This workbook has no sheets');
  let chosen = { path: paths[0]!, ...readCells(entries, paths[0]!, shared) };
  for (const path of paths) {
    const cells = path === chosen.path ? chosen : { path, ...readCells(entries, path, shared) };
    if ((cells.grid[0] ?? []).some((h) => h && namedColumn(h) === 'Sample Name')) {
      chosen = cells;
      break;
    }
  }
  const headerRow = chosen.grid[0] ?? [];
  let width = headerRow.length;
  while (width > 0 && !headerRow[width - 1]?.trim()) width--;
  const headers = Array.from({ length: width }, (_, i) => headerRow[i]?.trim() ?? '');
  const rows: string[][] = [];
  for (let r = 1; r < chosen.grid.length; r++)
    rows.push(Array.from({ length: width }, (_, i) => chosen.grid[r]?.[i] ?? ''));
  while (rows.length && rows[rows.length - 1]!.every((v) => !v.trim())) rows.pop();
  return {
    headers,
    rows,
    source: {
      entries,
      sheetPath: chosen.path,
      headerStyles: chosen.styles[0] ?? [],
      rowStyles: chosen.styles[1] ?? [],
    },
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cell(ref: string, value: string, style: string | null | undefined): string {
  const s = style ? ` s="${style}"` : '';
  if (value === '') return style ? `<c r="${ref}"${s}/>` : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${esc(value)}</t></is></c>`;
}

function sheetDataXml(headers: string[], rows: string[][], src: WorkbookSource | null): string {
  const lines = [headers, ...rows].map((values, r) => {
    const styles = r === 0 ? src?.headerStyles : src?.rowStyles;
    const cells = values.map((v, c) => cell(`${columnLetter(c)}${r + 1}`, v ?? '', styles?.[c])).join('');
    return `<row r="${r + 1}">${cells}</row>`;
  });
  return `<sheetData>${lines.join('')}</sheetData>`;
}

/** Writes the grid back into its workbook (or a new one) and returns the .xlsx bytes. */
export function writeXlsx(data: SheetData, lists: Array<{ column: string; values: readonly string[] }>): Uint8Array {
  const { headers, rows, source } = data;
  const last = `${columnLetter(Math.max(0, headers.length - 1))}${rows.length + 1}`;
  if (source) {
    const entries = new Map(source.entries);
    let xml = dec.decode(entries.get(source.sheetPath)!);
    xml = xml.replace(/<sheetData\s*\/>|<sheetData[\s>][\s\S]*?<\/sheetData>/, sheetDataXml(headers, rows, source));
    xml = xml.replace(/<dimension ref="[^"]*"\s*\/>/, `<dimension ref="A1:${last}"/>`);
    entries.set(source.sheetPath, enc.encode(xml));
    // A calculation chain naming cells we rewrote makes Excel "repair" the file: drop it.
    if (entries.delete('xl/calcChain.xml')) {
      const ct = dec.decode(entries.get('[Content_Types].xml')!).replace(/<Override[^>]*calcChain[^>]*\/>/, '');
      entries.set('[Content_Types].xml', enc.encode(ct));
      const rels = dec
        .decode(entries.get('xl/_rels/workbook.xml.rels')!)
        .replace(/<Relationship[^>]*calcChain[^>]*\/>/, '');
      entries.set('xl/_rels/workbook.xml.rels', enc.encode(rels));
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
  const sheet1 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${ns} ${rns}><dimension ref="A1:${columnLetter(Math.max(0, headers.length - 1))}${rows.length + 1}"/>${sheetDataXml(headers, rows, null)}${validations ? `<dataValidations count="${used.length}">${validations}</dataValidations>` : ''}</worksheet>`;
  const longest = Math.max(0, ...used.map((l) => l.values.length));
  const listRows = Array.from({ length: longest }, (_, r) => used.map((l) => l.values[r] ?? ''));
  const sheet2 = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${ns}>${sheetDataXml(listRows[0] ?? [], listRows.slice(1), null)}</worksheet>`;
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
