/**
 * The hostile annotation sheets of issue 11 (rows 2 and 3), made the way an attacker or a
 * careless user would make them: openpyxl for the workbook with a far cell, a streamed ZIP for
 * the shared-string bomb, plain text for the CSV with a million columns. They are built once per
 * machine into the temp folder (the bomb takes seconds to deflate) and shared by the
 * regression test and the parsing benchmark.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PYTHON = '/usr/bin/python3';
const WRITERS = join(import.meta.dirname, 'sheet-writers');
const DIR = join(tmpdir(), 'laneway-hostile-sheets-v1');

export interface HostileSheet {
  name: string;
  path: string;
  /** What the issue reported for it. */
  seen: string;
}

function cached(name: string, make: (out: string) => void): string {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, name);
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.tmp`;
    make(tmp);
    renameSync(tmp, path);
  }
  return path;
}

const py =
  (script: string, ...args: string[]) =>
  (out: string) =>
    execFileSync(PYTHON, [join(WRITERS, script), ...args, out], { stdio: 'pipe' });

/** Issue 11 row 2: 2,000 named rows and one cell in column XFD (openpyxl). */
export function xfdWorkbook(): HostileSheet {
  const path = cached('xfd-2000-rows.xlsx', py('xfd_workbook.py', '2000', '1'));
  return { name: 'xfd-2000-rows.xlsx', path, seen: 'heap fills, the process dies after ~45 s' };
}

/** Issue 11 row 2, the small variant: the header and one cell in XFD on row 2,000 (openpyxl). */
export function xfdWorkbookSmall(): HostileSheet {
  const path = cached('xfd-small.xlsx', py('xfd_workbook.py', '2000', '0'));
  return { name: 'xfd-small.xlsx', path, seen: 'every request blocked for 2 s' };
}

/** Issue 11 row 3: a 1.1 MB xlsx with 450 MiB of tiny shared strings. */
export function sharedStringsBomb(): HostileSheet {
  const path = cached('shared-strings-450mib.xlsx', py('shared_strings_bomb.py', '450'));
  return { name: 'shared-strings-450mib.xlsx', path, seen: '400, but nothing else answered for 14 s' };
}

/** Issue 11 row 3: a 7.9 MB CSV whose header has a million columns. */
export function millionColumnCsv(): HostileSheet {
  const path = cached('million-columns.csv', (out) => {
    const fields = ['Sample Name', 'Barcode', 'Organism', 'Category'];
    for (let i = fields.length; i < 1_000_000; i++) fields.push(`c${i}`);
    writeFileSync(out, `${fields.join(',')}\ns1,ACGTACGT,Homo sapiens,Total RNA\n`);
  });
  return { name: 'million-columns.csv', path, seen: '400, but nothing else answered for 126 s' };
}

export const sizeOf = (path: string) => statSync(path).size;
