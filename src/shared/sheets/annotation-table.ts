/**
 * Finding the annotation table in a sheet, the same way in the service, the CLI and the
 * editor: the header row is the first of the sheet's first rows that names Sample Name and at
 * least one other named column (a title line above the headers is common; the template's
 * field-description sheet lists "Sample Name" only as a value). In a workbook the first sheet
 * with such a row is the table, so a cover sheet or the template's description sheets never get
 * in the way. An Illumina sample sheet (v1 `[Data]`, v2 `[BCLConvert_Data]`) is read from its
 * sample section wherever it starts. Row numbers are the ones the spreadsheet shows.
 */
import { SAMPLE_NAME, namedColumn, type AnnotationRow } from '../annotation/columns';
import { columnName, TableReadError } from './table-limits';
import type { DelimitedRow } from './delimited';
import type { GridRow, WorkbookSheet, XlsxWorkbook } from './xlsx-workbook';

/** Headers are searched for in the first rows with a value. */
export const HEADER_SEARCH_ROWS = 10;

export interface AnnotationTable {
  /** The sheet (worksheet name, or "csv") the rows come from. */
  sheet: string;
  headers: string[];
  /** The 1-based columns of the headers, in order. */
  columns: number[];
  /** The row number of the header row. */
  headerRow: number;
  rows: AnnotationRow[];
}

/** Delimited rows as grid rows (columns 1-based). */
export function gridOfDelimited(rows: readonly DelimitedRow[]): GridRow[] {
  return rows.map((r) => ({ row: r.line, cells: new Map(r.fields.map((f, i) => [i + 1, f] as const)) }));
}

function namesHeader(r: GridRow): boolean {
  const named = new Set([...r.cells.values()].map(namedColumn).filter((c) => c !== null));
  return named.has(SAMPLE_NAME) && named.size >= 2;
}

/** The index in `grid` of the header row, or -1. */
export function headerRowIndex(grid: readonly GridRow[]): number {
  const section = illuminaDataSection(grid);
  if (section) return namesHeader(grid[section.header]!) ? section.header : -1;
  return grid.slice(0, HEADER_SEARCH_ROWS).findIndex(namesHeader);
}

const SECTION_RE = /^\[([^\]]+)\]$/;
const sectionOf = (r: GridRow) =>
  SECTION_RE.exec((r.cells.get(1) ?? '').trim())?.[1]
    ?.trim()
    .toLowerCase() ?? null;

/**
 * An Illumina sample sheet's sample table: the `[Data]` section (v1, bcl2fastq and the
 * instruments' sheets) or `[BCLConvert_Data]` (v2), wherever it starts (a v1 [Header] alone is
 * often longer than ten rows). `header` is its header row's index in `grid`, `end` the index of
 * the next section (or the grid's length).
 */
export function illuminaDataSection(grid: readonly GridRow[]): { header: number; end: number } | null {
  const at = grid.findIndex((r) => sectionOf(r) === 'data' || sectionOf(r) === 'bclconvert_data');
  if (at < 0) return null;
  const header = grid.findIndex((r, i) => i > at && [...r.cells.values()].some((v) => v.trim()));
  if (header < 0 || sectionOf(grid[header]!) !== null) return null;
  const next = grid.findIndex((r, i) => i > header && sectionOf(r) !== null);
  return { header, end: next < 0 ? grid.length : next };
}

/**
 * An Illumina sheet lists a sample once per lane: rows equal but for Lane are one sample of the
 * lane sheet, its lanes joined as `1+2` (kept as metadata).
 */
function mergeLanes(headers: readonly string[], rows: AnnotationRow[]): AnnotationRow[] {
  const lane = headers.find((h) => h.toLowerCase() === 'lane');
  if (!lane) return rows;
  const merged = new Map<string, AnnotationRow>();
  for (const r of rows) {
    const key = JSON.stringify(headers.filter((h) => h !== lane).map((h) => r.values[h]));
    const known = merged.get(key);
    if (!known) merged.set(key, { row: r.row, values: { ...r.values } });
    else if (r.values[lane]) known.values[lane] = [known.values[lane], r.values[lane]].filter(Boolean).join('+');
  }
  return [...merged.values()];
}

const noHeader = () =>
  new TableReadError(
    `The sheet has no header row with "${SAMPLE_NAME}" and the other columns in its first ${HEADER_SEARCH_ROWS} rows`,
    1,
  );

/**
 * The table under the header row: rows with any value, keyed by header. `problems` are cells
 * without a usable value (workbook errors, formulas never calculated); one under a header is an
 * error, one elsewhere is ignored.
 */
export function annotationTable(
  sheet: string,
  grid: readonly GridRow[],
  problems: ReadonlyMap<string, string> = new Map(),
): AnnotationTable {
  const at = headerRowIndex(grid);
  if (at < 0) throw noHeader();
  const headerRow = grid[at]!;
  const headers: string[] = [];
  const columns: number[] = [];
  const seen = new Set<string>();
  for (const [col, raw] of [...headerRow.cells.entries()].sort((a, b) => a[0] - b[0])) {
    const h = raw.trim();
    if (!h) continue;
    // Each row's values are kept under the header's name, and `__proto__` is the one name a
    // plain object will not keep: the column would vanish from every sample without a word.
    if (h === '__proto__') {
      throw new TableReadError(`Column "${h}" cannot be kept: give it another name`, headerRow.row, columnName(col));
    }
    if (seen.has(h.toLowerCase())) {
      throw new TableReadError(`Column "${h}" appears twice in the header`, headerRow.row, columnName(col));
    }
    seen.add(h.toLowerCase());
    headers.push(h);
    columns.push(col);
  }
  const section = illuminaDataSection(grid);
  const rows: AnnotationRow[] = [];
  for (const r of grid.slice(at + 1, section?.end)) {
    const values: Record<string, string> = {};
    let any = false;
    headers.forEach((h, k) => {
      const col = columns[k]!;
      const problem = problems.get(`${r.row}:${col}`);
      if (problem) throw new TableReadError(problem, r.row, columnName(col));
      const v = (r.cells.get(col) ?? '').trim();
      values[h] = v;
      if (v) any = true;
    });
    if (any) rows.push({ row: r.row, values });
  }
  // A problem cell in a row with no other value is still a problem of the table.
  for (const [key, message] of problems) {
    const [row, col] = key.split(':').map(Number) as [number, number];
    if (row > headerRow.row && columns.includes(col) && !rows.some((x) => x.row === row)) {
      throw new TableReadError(message, row, columnName(col));
    }
  }
  return { sheet, headers, columns, headerRow: headerRow.row, rows: section ? mergeLanes(headers, rows) : rows };
}

/** The first sheet of a workbook holding an annotation table, read; refuses a workbook with none. */
export async function workbookAnnotationTable(
  workbook: XlsxWorkbook,
): Promise<{ table: AnnotationTable; sheet: WorkbookSheet }> {
  for (let i = 0; i < workbook.sheets.length; i++) {
    const sheet = await workbook.readSheet(i);
    if (headerRowIndex(sheet.rows) >= 0)
      return { table: annotationTable(sheet.name, sheet.rows, sheet.problems), sheet };
  }
  throw new TableReadError(
    `No sheet has a "${SAMPLE_NAME}" header (sheets: ${workbook.sheets.map((s) => s.name).join(', ')}); use the annotation template`,
  );
}
