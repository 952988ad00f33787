/**
 * Reading .xlsx workbooks as every common writer saves them (Excel, LibreOffice, openpyxl and
 * pandas, Google Sheets, exceljs): parts are found through their relationships, whose targets
 * may be relative (`worksheets/sheet1.xml`, Excel) or absolute (`/xl/worksheets/sheet1.xml`,
 * openpyxl); cells may omit their reference (`r`), carry shared, inline or formula strings,
 * booleans, errors, ISO dates (`t="d"`) or serial dates under a date format; tags may carry a
 * namespace prefix. Bounds (table-limits.ts) are checked while scanning, so a hostile workbook
 * is refused by the bound it exceeds instead of filling memory. Only cells holding a value are
 * kept, so a stray cell far out costs one entry, not a row of empty ones.
 */
import { columnName, formatCount, TABLE_LIMITS, TableReadError, type TableLimits } from './table-limits';
import { scanXml } from './xml-scan';
import { ZipArchive, type Inflate } from './zip-archive';

/** One row of a sheet: its number and the cells holding a value, by 1-based column. */
export interface GridRow {
  row: number;
  cells: Map<number, string>;
}

export interface WorkbookSheet {
  name: string;
  /** The sheet's part in the archive, e.g. `xl/worksheets/sheet1.xml`. */
  path: string;
  /** Rows holding at least one value, in order. */
  rows: GridRow[];
  /** Cells that hold no usable value (an error, a formula never calculated), by `row:column`, with why. */
  problems: Map<string, string>;
  /** Style ids of the first rows' cells (row → column → style), kept to write cells back alike. */
  styles: Map<number, Map<number, string>>;
}

const STYLED_ROWS = 12;
const REL_OFFICE_DOCUMENT = /\/officeDocument$/;
const decoder = new (
  globalThis as unknown as { TextDecoder: new (label?: string) => { decode(b: Uint8Array): string } }
).TextDecoder();

function xmlText(bytes: Uint8Array): string {
  // Parts are UTF-8 in practice; UTF-16 is allowed by XML and recognised by its BOM.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new (
      globalThis as unknown as { TextDecoder: new (l: string) => { decode(b: Uint8Array): string } }
    ).TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  return decoder.decode(bytes);
}

/** Resolves a relationship target against the folder of the part that names it. */
export function resolvePartName(fromPart: string, target: string): string {
  const t = target.replace(/\\/g, '/');
  const base = t.startsWith('/') ? [] : fromPart.split('/').slice(0, -1);
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') base.pop();
    else base.push(seg);
  }
  return base.join('/');
}

function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** `B12` → [12, 2]; null when it is not a cell reference. */
function parseRef(ref: string): [number, number] | null {
  const m = /^\$?([A-Za-z]{1,4})\$?(\d{1,8})$/.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return [Number(m[2]), col];
}

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/** True when a number format code shows a date or time (d, m, y, h or s outside quotes and brackets). */
function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** An Excel serial date as ISO 8601: `2024-03-01`, `2024-03-01 14:30:00` or `14:30:00`. */
export function serialToIso(serial: number, date1904: boolean): string {
  let days = serial;
  // The 1900 system counts a 29 February 1900 that never was: serials before it are one day off.
  if (!date1904 && serial < 60) days += 1;
  const base = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const d = new Date(base + Math.round(days * 86_400) * 1000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (Number.isInteger(serial)) return date;
  return serial < 1 ? time : `${date} ${time}`;
}

/** A number as a spreadsheet's General format shows it: `1`, `0.1`, not `0.10000000000000001`. */
function numberText(v: string): string {
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? String(n) : v;
}

export class XlsxWorkbook {
  /** The workbook's sheets in tab order. */
  readonly sheets: Array<{ name: string; path: string; hidden: boolean }> = [];
  private date1904 = false;
  private sharedStrings: string[] | null = null;
  private dateStyles: Set<number> | null = null;
  private workbookRels: Relationship[] = [];

  private constructor(
    readonly archive: ZipArchive,
    private readonly limits: TableLimits,
    private workbookPath: string,
  ) {}

  /** Opens a workbook's bytes; `inflate` is the host's raw-DEFLATE inflater. */
  static async open(bytes: Uint8Array, inflate: Inflate, limits: Partial<TableLimits> = {}): Promise<XlsxWorkbook> {
    const all = { ...TABLE_LIMITS, ...limits };
    if (bytes.length > all.maxFileBytes) {
      throw new TableReadError(
        `The workbook has ${formatCount(bytes.length)} bytes, over the limit of ${formatCount(all.maxFileBytes)}`,
        0,
        '',
        'maxFileBytes',
      );
    }
    if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) {
      throw new TableReadError('This is not an .xlsx workbook (it is not a ZIP archive)');
    }
    const archive = new ZipArchive(bytes, inflate, all);
    const rootRels = await XlsxWorkbook.rels(archive, '_rels/.rels', '');
    const office = rootRels.find((r) => REL_OFFICE_DOCUMENT.test(r.type));
    const wb = new XlsxWorkbook(archive, all, office ? resolvePartName('', office.target) : 'xl/workbook.xml');
    await wb.readWorkbookPart();
    return wb;
  }

  private static async rels(archive: ZipArchive, relsPath: string, fromPart: string): Promise<Relationship[]> {
    const bytes = await archive.read(relsPath);
    if (!bytes) return [];
    const out: Relationship[] = [];
    scanXml(xmlText(bytes), {
      open(name, a) {
        if (name === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') {
          out.push({ id: a.Id, type: a.Type ?? '', target: resolvePartName(fromPart, a.Target) });
        }
      },
    });
    return out;
  }

  private async readWorkbookPart(): Promise<void> {
    let bytes = await this.archive.read(this.workbookPath);
    if (!bytes && this.workbookPath !== 'xl/workbook.xml') {
      this.workbookPath = 'xl/workbook.xml';
      bytes = await this.archive.read(this.workbookPath);
    }
    if (!bytes) throw new TableReadError('This workbook has no sheets (its workbook part is missing)');
    this.workbookRels = await XlsxWorkbook.rels(this.archive, relsPathOf(this.workbookPath), this.workbookPath);
    const byId = new Map(this.workbookRels.map((r) => [r.id, r.target]));
    scanXml(xmlText(bytes), {
      open: (name, a) => {
        if (name === 'workbookPr' && (a.date1904 === '1' || a.date1904 === 'true')) this.date1904 = true;
        if (name === 'sheet') {
          const path = byId.get(a.id ?? '');
          // Chart sheets and dialog sheets have no cells: only worksheets are listed.
          if (path && this.archive.has(path) && !/chartsheets?\//.test(path)) {
            this.sheets.push({ name: a.name ?? '', path, hidden: (a.state ?? 'visible') !== 'visible' });
          }
        }
      },
    });
    if (this.sheets.length === 0) throw new TableReadError('This workbook has no worksheets');
  }

  private partOfType(suffix: string, fallback: string): string {
    return this.workbookRels.find((r) => r.type.endsWith(suffix))?.target ?? fallback;
  }

  private async loadSharedStrings(): Promise<string[]> {
    if (this.sharedStrings) return this.sharedStrings;
    const strings: string[] = [];
    const bytes = await this.archive.read(this.partOfType('/sharedStrings', 'xl/sharedStrings.xml'));
    if (bytes) {
      const limits = this.limits;
      let current: string[] | null = null;
      let inT = false;
      let phonetic = 0;
      scanXml(xmlText(bytes), {
        open(name) {
          if (name === 'si') {
            current = [];
            if (strings.length >= limits.maxSharedStrings) {
              throw new TableReadError(
                `The workbook has more than ${formatCount(limits.maxSharedStrings)} shared strings (the limit)`,
                0,
                '',
                'maxSharedStrings',
              );
            }
          } else if (name === 't') inT = true;
          else if (name === 'rPh') phonetic++; // reading aids of East Asian text are not the text
        },
        close(name) {
          if (name === 'si' && current) {
            strings.push(current.join(''));
            current = null;
          } else if (name === 't') inT = false;
          else if (name === 'rPh') phonetic--;
        },
        text(t) {
          if (inT && current && phonetic === 0) current.push(t);
        },
      });
    }
    this.sharedStrings = strings;
    return strings;
  }

  private async loadDateStyles(): Promise<Set<number>> {
    if (this.dateStyles) return this.dateStyles;
    const dates = new Set<number>();
    const bytes = await this.archive.read(this.partOfType('/styles', 'xl/styles.xml'));
    if (bytes) {
      const custom = new Map<number, string>();
      let inCellXfs = false;
      let xf = 0;
      scanXml(xmlText(bytes), {
        open(name, a, selfClosing) {
          if (name === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '');
          else if (name === 'cellXfs') inCellXfs = !selfClosing;
          else if (name === 'xf' && inCellXfs) {
            const id = Number(a.numFmtId ?? 0);
            const code = custom.get(id);
            if (code !== undefined ? isDateFormat(code) : BUILTIN_DATE_FORMATS.has(id)) dates.add(xf);
            xf++;
          }
        },
        close(name) {
          if (name === 'cellXfs') inCellXfs = false;
        },
      });
    }
    this.dateStyles = dates;
    return dates;
  }

  /** Reads one sheet's cells within the bounds. */
  async readSheet(index: number): Promise<WorkbookSheet> {
    const info = this.sheets[index];
    if (!info) throw new TableReadError(`The workbook has no sheet ${index + 1}`);
    const shared = await this.loadSharedStrings();
    const dateStyles = await this.loadDateStyles();
    const bytes = await this.archive.read(info.path);
    if (!bytes) throw new TableReadError(`The workbook's sheet "${info.name}" is missing`);
    const { limits, date1904 } = this;
    const byRow = new Map<number, GridRow>();
    const problems = new Map<string, string>();
    const styles = new Map<number, Map<number, string>>();
    let rowNumber = 0;
    let col = 0;
    let cells = 0;
    let cell: {
      row: number;
      col: number;
      type: string;
      style: number;
      v: string;
      inline: string;
      formula: boolean;
    } | null = null;
    let inV = false;
    let inT = false;
    let phonetic = 0;

    const rowFor = (r: number): GridRow => {
      let row = byRow.get(r);
      if (!row) byRow.set(r, (row = { row: r, cells: new Map() }));
      return row;
    };
    const finishCell = () => {
      const c = cell!;
      cell = null;
      const ref = `${columnName(c.col)}${c.row}`;
      let value: string;
      switch (c.type) {
        case 's': {
          const k = Number(c.v);
          if (!Number.isInteger(k) || k < 0 || k >= shared.length) {
            problems.set(`${c.row}:${c.col}`, `Cell ${ref} names a shared string the workbook does not have`);
            return;
          }
          value = shared[k]!;
          break;
        }
        case 'inlineStr':
          value = c.inline;
          break;
        case 'b':
          value = c.v === '' ? '' : c.v === '1' || c.v === 'true' ? 'TRUE' : 'FALSE';
          break;
        case 'e':
          problems.set(`${c.row}:${c.col}`, `Cell ${ref} holds the error ${c.v || 'value'}`);
          return;
        case 'str':
          value = c.v;
          break;
        case 'd':
          value = c.v.replace(/T00:00(:00(\.0+)?)?Z?$/, '').replace('T', ' ');
          break;
        default:
          value = c.v === '' ? '' : dateStyles.has(c.style) ? serialToIso(Number(c.v), date1904) : numberText(c.v);
      }
      if (value === '' && c.formula && c.v === '' && c.type !== 'inlineStr') {
        problems.set(`${c.row}:${c.col}`, `Cell ${ref} holds a formula without a saved value`);
        return;
      }
      if (value === '') return;
      if (c.col > limits.maxColumns) {
        throw new TableReadError(
          `Cell ${ref} on sheet "${info.name}" is in column ${formatCount(c.col)}; sheets may use at most ${formatCount(limits.maxColumns)} columns (the limit)`,
          c.row,
          columnName(c.col),
          'maxColumns',
        );
      }
      if (c.row > limits.maxRows) {
        throw new TableReadError(
          `Cell ${ref} on sheet "${info.name}" is in row ${formatCount(c.row)}; sheets may use at most ${formatCount(limits.maxRows)} rows (the limit)`,
          c.row,
          columnName(c.col),
          'maxRows',
        );
      }
      if (value.length > limits.maxCellChars) {
        throw new TableReadError(
          `Cell ${ref} holds ${formatCount(value.length)} characters, over the limit of ${formatCount(limits.maxCellChars)}`,
          c.row,
          columnName(c.col),
          'maxCellChars',
        );
      }
      if (++cells > limits.maxCells) {
        throw new TableReadError(
          `Sheet "${info.name}" has more than ${formatCount(limits.maxCells)} filled cells (the limit)`,
          c.row,
          columnName(c.col),
          'maxCells',
        );
      }
      rowFor(c.row).cells.set(c.col, value);
    };

    scanXml(xmlText(bytes), {
      open(name, a) {
        switch (name) {
          case 'row':
            rowNumber = a.r ? Number(a.r) : rowNumber + 1;
            col = 0;
            break;
          case 'c': {
            const ref = a.r ? parseRef(a.r) : null;
            const row = ref ? ref[0] : rowNumber;
            col = ref ? ref[1] : col + 1;
            const style = Number(a.s ?? 0);
            if (a.s && row <= STYLED_ROWS) {
              if (!styles.has(row)) styles.set(row, new Map());
              styles.get(row)!.set(col, a.s);
            }
            cell = { row, col, type: a.t ?? 'n', style, v: '', inline: '', formula: false };
            break;
          }
          case 'v':
            inV = true;
            break;
          case 'f':
            if (cell) cell.formula = true;
            break;
          case 't':
            inT = true;
            break;
          case 'rPh':
            phonetic++;
            break;
        }
      },
      close(name) {
        if (name === 'c' && cell) finishCell();
        else if (name === 'v') inV = false;
        else if (name === 't') inT = false;
        else if (name === 'rPh') phonetic--;
      },
      text(t) {
        if (!cell) return;
        if (inV) cell.v += t;
        else if (inT && phonetic === 0) cell.inline += t;
      },
    });
    const rows = [...byRow.values()].sort((a, b) => a.row - b.row);
    return { name: info.name, path: info.path, rows, problems, styles };
  }
}
