/**
 * Workbooks and text exports made by the programs labs use, for the tests that read them:
 * openpyxl and pandas (Debian's python3-openpyxl, python3-pandas, through workbook_writers.py)
 * and LibreOffice Calc in headless convert mode. Nothing here writes a fixture by hand, so the
 * day a writer changes what it writes, the tests see it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'sheet-writers', 'workbook_writers.py');

/** A row by header label (without the template's " *"); `{date}` makes a date cell. */
export type WriterRow = Record<string, string | number | { date: string }>;

const py = (...args: string[]) => execFileSync(PYTHON, [SCRIPT, ...args], { stdio: 'pipe', encoding: 'utf8' });

/** openpyxl opens `input`, writes the rows under the first sheet's headers and saves `out`. */
export const openpyxlFill = (input: string, out: string, rows: WriterRow[]) => {
  py('fill', input, out, JSON.stringify(rows));
  return out;
};
/** A new workbook written by openpyxl. */
export const openpyxlNew = (out: string, rows: WriterRow[]) => {
  py('new', out, JSON.stringify(rows));
  return out;
};
/** A new workbook written by openpyxl with a title line above the headers (row 1). */
export const openpyxlTitled = (out: string, title: string, rows: WriterRow[]) => {
  py('titled', out, title, JSON.stringify(rows));
  return out;
};
/** Every sheet read by pandas.read_excel and written back by DataFrame.to_excel. */
export const pandasRoundTrip = (input: string, out: string) => {
  py('pandas-roundtrip', input, out);
  return out;
};
/** One DataFrame written by DataFrame.to_excel. */
export const pandasFrame = (out: string, rows: WriterRow[]) => {
  py('pandas-frame', out, JSON.stringify(rows));
  return out;
};
/** One DataFrame written by DataFrame.to_csv, without the index column. */
export const pandasCsv = (out: string, rows: WriterRow[]) => {
  py('pandas-csv', out, JSON.stringify(rows));
  return out;
};
/** What openpyxl sees in a workbook: its sheet names, the first sheet's data validations and rows. */
export interface OpenpyxlView {
  sheets: string[];
  validations: Array<{ type: string; formula1: string | null; sqref: string }>;
  rows: Array<Array<string | null>>;
}
export const openpyxlInspect = (input: string) => JSON.parse(py('inspect', input)) as OpenpyxlView;
/** The first sheet's rows as openpyxl reads them (null for an empty cell). */
export const openpyxlRead = (input: string) => JSON.parse(py('read', input)) as Array<Array<string | null>>;

/**
 * LibreOffice Calc converts `inputs` into `outDir` with a filter, e.g. `xlsx`,
 * `csv:Text - txt - csv (StarCalc):59,34,76,1` (semicolons, UTF-8) or
 * `txt:Text - txt - csv (StarCalc):9,34,65535,1` (tabs, UTF-16: Excel's "Unicode text").
 * A private profile per call keeps parallel conversions apart.
 */
export function libreOfficeConvert(inputs: string[], filter: string, outDir: string, profileDir: string): void {
  mkdirSync(outDir, { recursive: true });
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
      '--headless',
      '--convert-to',
      filter,
      '--outdir',
      outDir,
      ...inputs,
    ],
    { stdio: 'pipe', timeout: 180_000 },
  );
}
