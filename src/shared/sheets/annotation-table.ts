/**
 * Finding the annotation table in a sheet, the same way in the service, the CLI and the
 * editor: the header row is the first of the sheet's first rows that names Sample Name and at
 * least one other named column (a title line above the headers is common; the template's
 * field-description sheet lists "Sample Name" only as a value). In a workbook the first sheet
 * with such a row is the table, so a cover sheet or the template's description sheets never get
 * in the way. Row numbers are the ones the spreadsheet shows.
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

/** The index in `grid` of the header row, or -1. */
export function headerRowIndex(grid: readonly GridRow[]): number {
  return grid.slice(0, HEADER_SEARCH_ROWS).findIndex((r) => {
    const named = new Set([...r.cells.values()].map(namedColumn).filter((c) => c !== null));
    return named.has(SAMPLE_NAME) && named.size >= 2;
  });
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
    if (seen.has(h.toLowerCase())) {
      throw new TableReadError(`Column "${h}" appears twice in the header`, headerRow.row, columnName(col));
    }
    seen.add(h.toLowerCase());
    headers.push(h);
    columns.push(col);
  }
  const rows: AnnotationRow[] = [];
  for (const r of grid.slice(at + 1)) {
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
  return { sheet, headers, columns, headerRow: headerRow.row, rows };
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
