/**
 * A CSV parser for annotation sheets exported from spreadsheets: RFC 4180 quoting (quoted
 * fields with commas, doubled quotes and line breaks), CRLF or LF, a UTF-8 byte-order mark, and
 * the separator Excel writes in many locales (semicolon) or a tab, chosen from the header line.
 */

/** A CSV that cannot be read, with the row and column (1-based, as a spreadsheet shows them). */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly row: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

function separatorOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((s) => ({ s, n: firstLine.split(s).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0] && counts[0].n > 0 ? counts[0].s : ',';
}

/** Parses CSV text into rows of fields; each row keeps its line number. */
export function parseCsv(input: string): Array<{ line: number; fields: string[] }> {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const sep = separatorOf(text);
  const rows: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push({ line: rowLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"' && field === '') {
      // A quoted field: runs to the closing quote; "" is one quote; line breaks are data.
      const startLine = line;
      const column = fields.length + 1;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvError(`Row ${startLine}: a quoted field is never closed`, startLine, column);
        const q = text[i] as string;
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== sep && next !== '\n' && next !== '\r') {
        throw new CsvError(`Row ${startLine}: text after the closing quote of column ${column}`, startLine, column);
      }
      continue;
    }
    if (c === sep) {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}
