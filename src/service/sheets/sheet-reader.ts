/**
 * Reads an annotation sheet (xlsx, or delimited text: csv, tsv, txt) into rows keyed by header,
 * with the shared readers of src/shared/sheets and their bounds. This runs the parse on the
 * calling thread: the service calls it only inside its sheet-parsing thread
 * (demux/bounded-sheet-reader.ts); the demultiplexing child process and the CLI call it directly.
 */
import { stat, readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import type { AnnotationRow } from '../../shared/annotation/columns';
import {
  annotationTable,
  formatCount,
  gridOfDelimited,
  InflateCapError,
  readDelimitedFile,
  TABLE_LIMITS,
  TableReadError,
  workbookAnnotationTable,
  XlsxWorkbook,
  type TableLimits,
} from '../../shared/sheets';

export { TableReadError as SheetReadError };

export interface ReadSheetResult {
  /** The sheet (worksheet name, or "csv") the rows come from. */
  sheet: string;
  headers: string[];
  rows: AnnotationRow[];
}

/** node:zlib's raw inflate, stopped at `maxBytes` of output. */
export function nodeInflate(data: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new InflateCapError();
    }
    throw err;
  }
}

/** Reads an xlsx or delimited sheet from a buffer or a file path; the file name decides the format. */
export async function readSheet(
  source: Buffer | string,
  filename: string,
  limitsIn: Partial<TableLimits> = {},
): Promise<ReadSheetResult> {
  const limits = { ...TABLE_LIMITS, ...limitsIn };
  const lower = filename.toLowerCase();
  const delimited = /\.(csv|tsv|txt)$/.test(lower);
  if (!delimited && !lower.endsWith('.xlsx')) {
    if (lower.endsWith('.xls')) {
      throw new TableReadError(`"${filename}" is an old Excel file (.xls); save it as .xlsx or .csv`);
    }
    throw new TableReadError(`"${filename}" is not an annotation sheet: expected .xlsx or .csv`);
  }
  if (typeof source === 'string') {
    const size = (await stat(source)).size;
    if (size > limits.maxFileBytes) {
      throw new TableReadError(
        `The sheet has ${formatCount(size)} bytes, over the limit of ${formatCount(limits.maxFileBytes)}`,
        0,
        '',
        'maxFileBytes',
      );
    }
  }
  const buffer = typeof source === 'string' ? await readFile(source) : source;
  if (delimited) {
    const table = annotationTable('csv', gridOfDelimited(readDelimitedFile(buffer, { limits }).rows));
    return { sheet: table.sheet, headers: table.headers, rows: table.rows };
  }
  const workbook = await XlsxWorkbook.open(buffer, nodeInflate, limits);
  const { table } = await workbookAnnotationTable(workbook);
  return { sheet: table.sheet, headers: table.headers, rows: table.rows };
}
