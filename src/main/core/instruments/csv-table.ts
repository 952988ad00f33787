/**
 * The small CSV interface the instrument readers use: records and header-keyed rows, over the
 * one delimited-text reader of src/shared/sheets (quoted commas, quotes and newlines, BOM, CRLF).
 */
import { parseDelimited } from '../../../shared/sheets';

// Instrument files list one row per output file: a large PromethION run writes tens of
// thousands, far beyond the bounds meant for sheets people type.
const INSTRUMENT_LIMITS = { maxRows: 2_000_000, maxCells: 20_000_000, maxFileBytes: 512 * 1024 * 1024 };

/** Every record of a CSV text, fields unquoted (the shared reader: BOM, CRLF, quoted newlines). */
export function csvRecords(text: string): string[][] {
  return parseDelimited(text, { separator: ',', limits: INSTRUMENT_LIMITS })
    .rows.map((r) => r.fields)
    .filter((r) => r.some((f) => f.trim() !== ''));
}

export interface CsvTable {
  /** Column names as written (trimmed). */
  header: string[];
  /** Rows keyed by lower-cased column name. */
  rows: Array<Record<string, string>>;
}

/** A CSV with a header row; columns are looked up by name, in any order, any case. */
export function csvTable(text: string): CsvTable {
  const [head, ...body] = csvRecords(text);
  const header = (head ?? []).map((h) => h.trim());
  const keys = header.map((h) => h.toLowerCase());
  return {
    header,
    rows: body.map((r) => Object.fromEntries(keys.map((k, i) => [k, (r[i] ?? '').trim()]))),
  };
}

/** The columns of `names` the table lacks (lower case), for messages that name them. */
export function missingColumns(table: CsvTable, names: readonly string[]): string[] {
  const have = new Set(table.header.map((h) => h.toLowerCase()));
  return names.filter((n) => !have.has(n.toLowerCase()));
}
