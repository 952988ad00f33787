/**
 * Reads an annotation sheet (xlsx through exceljs, or csv) into rows keyed by header. In a
 * workbook the sheet is chosen by its headers (the first sheet with a Sample Name column), so
 * the template's description sheet or a cover sheet never gets in the way. Row numbers are the
 * ones the spreadsheet shows.
 */
import { readFile } from 'node:fs/promises';
import type ExcelJS from 'exceljs';
import { SAMPLE_NAME, namedColumn, type AnnotationRow } from '../../shared/annotation/columns';
import { readDelimitedFile, TableReadError } from '../../shared/sheets';

/** A sheet that cannot be read; row and column say where (0 when the whole file is at fault). */
export { TableReadError as SheetReadError };

export interface ReadSheetResult {
  /** The sheet (worksheet name, or "csv") the rows come from. */
  sheet: string;
  headers: string[];
  rows: AnnotationRow[];
}

/** Headers are searched for in the first rows: a title line above them is common. */
const HEADER_SEARCH_ROWS = 10;

/** Reads an xlsx or csv sheet from a buffer or a file path; the file name decides the format. */
export async function readSheet(source: Buffer | string, filename: string): Promise<ReadSheetResult> {
  const buffer = typeof source === 'string' ? await readFile(source) : source;
  const lower = filename.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.tsv') || lower.endsWith('.txt')) return readCsv(buffer);
  if (lower.endsWith('.xlsx')) return readXlsx(buffer);
  if (lower.endsWith('.xls')) {
    throw new TableReadError(`"${filename}" is an old Excel file (.xls); save it as .xlsx or .csv`);
  }
  throw new TableReadError(`"${filename}" is not an annotation sheet: expected .xlsx or .csv`);
}

function readCsv(buffer: Buffer): ReadSheetResult {
  const parsed = readDelimitedFile(buffer);
  return fromGrid(
    'csv',
    parsed.rows.map((r) => ({ row: r.line, cells: r.fields })),
  );
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'error' in v) {
    throw new TableReadError(`Cell ${cell.address} holds the error ${String(v.error)}`, Number(cell.row), cell.address);
  }
  if (typeof v === 'object' && 'formula' in v && (v.result === undefined || v.result === null)) {
    // A formula saved without its computed result (files written by scripts): nothing to read.
    throw new TableReadError(
      `Cell ${cell.address} holds a formula without a saved value`,
      Number(cell.row),
      cell.address,
    );
  }
  return cell.text ?? '';
}

async function readXlsx(buffer: Buffer): Promise<ReadSheetResult> {
  // Loaded on demand: exceljs costs ~0.4 s of CPU to load, which CSV sheets and CLI start-up skip.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch (err) {
    throw new TableReadError(`The workbook cannot be opened: ${(err as Error).message}`);
  }
  const names: string[] = [];
  for (const ws of workbook.worksheets) {
    names.push(ws.name);
    const grid: Array<{ row: number; cells: string[] }> = [];
    const width = ws.columnCount;
    ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c)));
      grid.push({ row: rowNumber, cells });
    });
    if (headerIndex(grid) >= 0) return fromGrid(ws.name, grid);
  }
  throw new TableReadError(
    `No sheet has a "${SAMPLE_NAME}" header (sheets: ${names.join(', ') || 'none'}); use the annotation template`,
  );
}

/**
 * The header row: Sample Name and at least one more named column in the same row. A single
 * "Sample Name" cell is not enough; the template's field-description sheet lists it as a value.
 */
function headerIndex(grid: ReadonlyArray<{ cells: string[] }>): number {
  return grid.slice(0, HEADER_SEARCH_ROWS).findIndex((r) => {
    const named = new Set(r.cells.map(namedColumn).filter((c) => c !== null));
    return named.has(SAMPLE_NAME) && named.size >= 2;
  });
}

function fromGrid(sheet: string, grid: Array<{ row: number; cells: string[] }>): ReadSheetResult {
  const at = headerIndex(grid);
  if (at < 0) {
    throw new TableReadError(
      `The sheet has no header row with "${SAMPLE_NAME}" and the other columns in its first ${HEADER_SEARCH_ROWS} rows`,
      1,
    );
  }
  const headerRow = grid[at]!;
  const headers: string[] = [];
  const columns: number[] = [];
  const seen = new Map<string, number>();
  headerRow.cells.forEach((raw, i) => {
    const h = raw.trim();
    if (!h) return;
    const key = h.toLowerCase();
    if (seen.has(key)) {
      throw new TableReadError(`Column "${h}" appears twice in the header`, headerRow.row, h);
    }
    seen.set(key, i);
    headers.push(h);
    columns.push(i);
  });
  const rows: AnnotationRow[] = [];
  for (const r of grid.slice(at + 1)) {
    const values: Record<string, string> = {};
    let any = false;
    headers.forEach((h, k) => {
      const v = (r.cells[columns[k]!] ?? '').trim();
      values[h] = v;
      if (v) any = true;
    });
    if (any) rows.push({ row: r.row, values });
  }
  return { sheet, headers, rows };
}
