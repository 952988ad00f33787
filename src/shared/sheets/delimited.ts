/**
 * The one reader of delimited text in Laneway (annotation CSV/TSV in the service and the CLI,
 * Illumina sample sheets, instrument CSVs, the editor's CSV import and pasted blocks):
 * RFC 4180 quoting (quoted fields hold separators, doubled quotes and line breaks), CRLF, LF or
 * CR line ends, and the separator spreadsheets write: comma, semicolon (Excel in European
 * locales) or tab (Excel's "Text" and "Unicode text" exports, and every paste from a grid).
 * A quote inside an unquoted field is an ordinary character (`5" tube`), as Excel reads it.
 * Bounds on rows, columns, cells and cell length are checked while reading, so a hostile file
 * is refused before it costs memory.
 */
import { columnName, formatCount, TABLE_LIMITS, TableReadError, type TableLimits } from './table-limits';
import { decodeText, looksBinary } from './text-decode';

export type Separator = ',' | ';' | '\t';

export interface DelimitedRow {
  /** The line the row starts on (1-based), as a text editor shows it. */
  line: number;
  fields: string[];
}

export interface DelimitedOptions {
  /** The separator, or 'auto' (the default) to take the most frequent one in the first line. */
  separator?: Separator | 'auto';
  limits?: Partial<TableLimits>;
}

export interface DelimitedTable {
  separator: Separator;
  rows: DelimitedRow[];
}

const SEPARATORS: Separator[] = ['\t', ';', ','];

/**
 * The separator of a table: the one that occurs most often, outside quotes, in the first line
 * that has any (a sample sheet's `[Header]` line has none). Ties go to tab, then semicolon.
 */
export function detectSeparator(text: string): Separator {
  let start = 0;
  for (let n = 0; n < 20 && start < text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const counts = new Map<Separator, number>(SEPARATORS.map((s) => [s, 0]));
    let quoted = false;
    for (let i = start; i < end; i++) {
      const c = text[i] as Separator | '"';
      if (c === '"') quoted = !quoted;
      else if (!quoted && counts.has(c as Separator)) counts.set(c as Separator, counts.get(c as Separator)! + 1);
    }
    let best: Separator | null = null;
    for (const s of SEPARATORS)
      if (counts.get(s)! > 0 && (best === null || counts.get(s)! > counts.get(best)!)) best = s;
    if (best) return best;
    start = end + 1;
  }
  return ',';
}

/** Reads delimited text into rows of fields (fields are not trimmed). */
export function parseDelimited(text: string, options: DelimitedOptions = {}): DelimitedTable {
  const limits = { ...TABLE_LIMITS, ...options.limits };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sep = !options.separator || options.separator === 'auto' ? detectSeparator(body) : options.separator;
  const sepCode = sep.charCodeAt(0);
  const rows: DelimitedRow[] = [];
  const n = body.length;
  let fields: string[] = [];
  let line = 1;
  let rowLine = 1;
  let cells = 0;
  let i = 0;

  const push = (value: string) => {
    if (value.length > limits.maxCellChars) {
      throw new TableReadError(
        `Row ${rowLine}, column ${fields.length + 1}: a field of ${formatCount(value.length)} characters is over the limit of ${formatCount(limits.maxCellChars)}`,
        rowLine,
        columnName(fields.length + 1),
        'maxCellChars',
      );
    }
    if (fields.length >= limits.maxColumns) {
      throw new TableReadError(
        `Row ${rowLine} has more than ${formatCount(limits.maxColumns)} columns (the limit)`,
        rowLine,
        columnName(limits.maxColumns + 1),
        'maxColumns',
      );
    }
    if (value !== '' && ++cells > limits.maxCells) {
      throw new TableReadError(
        `The table has more than ${formatCount(limits.maxCells)} filled cells (the limit)`,
        rowLine,
        '',
        'maxCells',
      );
    }
    fields.push(value);
  };
  const endRow = () => {
    if (rows.length >= limits.maxRows) {
      throw new TableReadError(
        `The table has more than ${formatCount(limits.maxRows)} rows (the limit)`,
        rowLine,
        '',
        'maxRows',
      );
    }
    rows.push({ line: rowLine, fields });
    fields = [];
  };

  while (i < n) {
    // One field per turn; `i` is at its first character.
    if (body.charCodeAt(i) === 34 /* " */) {
      const startLine = line;
      const column = fields.length + 1;
      let value = '';
      let from = ++i;
      for (;;) {
        const q = body.indexOf('"', i);
        if (q < 0) {
          throw new TableReadError(
            `Row ${startLine}: the quoted field in column ${column} is never closed`,
            startLine,
            columnName(column),
          );
        }
        for (let k = body.indexOf('\n', i); k >= 0 && k < q; k = body.indexOf('\n', k + 1)) line++;
        if (q - from + value.length > limits.maxCellChars) {
          throw new TableReadError(
            `Row ${startLine}, column ${column}: a field is over the limit of ${formatCount(limits.maxCellChars)} characters`,
            startLine,
            columnName(column),
            'maxCellChars',
          );
        }
        if (body.charCodeAt(q + 1) === 34) {
          value += body.slice(from, q + 1);
          i = from = q + 2;
          continue;
        }
        value += body.slice(from, q);
        i = q + 1;
        break;
      }
      const next = body.charCodeAt(i);
      if (i < n && next !== sepCode && next !== 10 && next !== 13) {
        throw new TableReadError(
          `Row ${startLine}: text follows the closing quote in column ${column}`,
          startLine,
          columnName(column),
        );
      }
      push(value);
    } else {
      let j = i;
      while (j < n) {
        const c = body.charCodeAt(j);
        if (c === sepCode || c === 10 || c === 13) break;
        j++;
      }
      push(body.slice(i, j));
      i = j;
    }
    // After a field: a separator (another field follows), a line end, or the end of the text.
    if (i >= n) break;
    const c = body.charCodeAt(i);
    if (c === sepCode) {
      i++;
      if (i >= n) push('');
      continue;
    }
    i += c === 13 && body.charCodeAt(i + 1) === 10 ? 2 : 1;
    endRow();
    line++;
    rowLine = line;
  }
  if (fields.length > 0) endRow();
  return { separator: sep, rows };
}

/**
 * A block pasted from a spreadsheet or a text editor: tab-separated when it has a tab (what
 * every grid puts on the clipboard, quoting cells that hold line breaks), else delimited text
 * with its separator detected. A trailing line end adds no empty row.
 */
export function parsePastedBlock(text: string, limits?: Partial<TableLimits>): string[][] {
  const separator = text.includes('\t') ? '\t' : 'auto';
  try {
    return parseDelimited(text, { separator, limits }).rows.map((r) => r.fields);
  } catch (err) {
    // A lone quote in pasted prose (not a quoted cell) is text, not an error.
    if (!(err instanceof TableReadError) || err.limit) throw err;
    return text
      .replace(/\r\n?/g, '\n')
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (separator === '\t' ? l.split('\t') : [l]));
  }
}

/**
 * Reads a delimited text file's bytes in any encoding spreadsheet programs write (see
 * text-decode.ts), refusing a workbook or binary data sent under a text name.
 */
export function readDelimitedFile(bytes: Uint8Array, options: DelimitedOptions = {}): DelimitedTable {
  const limits = { ...TABLE_LIMITS, ...options.limits };
  if (bytes.length > limits.maxFileBytes) {
    throw new TableReadError(
      `The file has ${formatCount(bytes.length)} bytes, over the limit of ${formatCount(limits.maxFileBytes)}`,
      0,
      '',
      'maxFileBytes',
    );
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4) {
    throw new TableReadError('The file is a workbook (xlsx), not delimited text: name it .xlsx');
  }
  if (looksBinary(bytes)) throw new TableReadError('The file is binary, not delimited text');
  return parseDelimited(decodeText(bytes).text, options);
}
