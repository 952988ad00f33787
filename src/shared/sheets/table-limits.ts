/**
 * Bounds on untrusted tables (annotation sheets, sample sheets, pasted blocks): what a lab's
 * largest real sheet needs, with room to spare, and far below what would hold the service's
 * memory or time hostage. A table beyond a bound is refused with a message naming the bound.
 */
export interface TableLimits {
  /** Bytes of the file as sent. */
  maxFileBytes: number;
  /** Bytes of any one part of a workbook once inflated (a sheet, the shared strings). */
  maxPartBytes: number;
  /** Bytes of all parts of a workbook once inflated. */
  maxInflatedBytes: number;
  /** Rows: the highest row number holding a value. */
  maxRows: number;
  /** Columns: the highest column holding a value. */
  maxColumns: number;
  /** Cells holding a value, in one sheet or table. */
  maxCells: number;
  /** Characters of one cell. */
  maxCellChars: number;
  /** Entries of a workbook's shared-string table. */
  maxSharedStrings: number;
  /** Entries of a ZIP archive. */
  maxZipEntries: number;
  /** Milliseconds a parse may take before it is stopped (enforced by the process running it). */
  maxMillis: number;
}

export const TABLE_LIMITS: TableLimits = {
  maxFileBytes: 20 * 1024 * 1024,
  maxPartBytes: 32 * 1024 * 1024,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxRows: 20_000,
  maxColumns: 1_000,
  maxCells: 500_000,
  maxCellChars: 32_767, // Excel's own limit for one cell
  maxSharedStrings: 500_000,
  maxZipEntries: 1_000,
  maxMillis: 10_000,
};

/** A table that cannot be read; row and column (1-based, as a spreadsheet shows them) say where, 0 when nowhere in particular. */
export class TableReadError extends Error {
  constructor(
    message: string,
    readonly row = 0,
    readonly column = '',
    /** The bound that was exceeded, when one was (a key of TableLimits). */
    readonly limit: keyof TableLimits | null = null,
  ) {
    super(message);
    this.name = 'TableReadError';
  }
}

/** `1` → `A`, `16384` → `XFD` (1-based). */
export function columnName(column: number): string {
  let s = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Formats a count for a message: 1,000. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
