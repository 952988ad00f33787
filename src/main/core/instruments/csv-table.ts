/**
 * The small CSV interface the instrument readers use: records (quoted commas, quotes and
 * newlines, BOM, CRLF) and header-keyed rows. The "documents" work is landing one CSV/TSV
 * reader in src/shared; when it does, these two functions delegate to it and nothing else
 * in the instrument readers changes.
 */

/** Every record of a CSV text, fields unquoted (RFC 4180, plus a leading BOM and bare LF). */
export function csvRecords(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      if (c === '\r' && src[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if (field !== '' || row.length) {
    row.push(field);
    out.push(row);
  }
  return out.filter((r) => r.some((f) => f.trim() !== ''));
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
