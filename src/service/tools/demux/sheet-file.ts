/**
 * Reads the annotation sheet a demultiplexing job names. A sheet given as a data record is a
 * file of the content store, named by its hash without an extension, so the format comes from
 * the file's first bytes (a zip is an xlsx workbook, anything else CSV or TSV text) whenever
 * the name does not tell.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { readSheet, type ReadSheetResult } from '../../sheets/sheet-reader';

const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');

/** The name readSheet should see for a sheet file: its own when it has a sheet extension. */
export function sheetName(path: string): string {
  const name = basename(path);
  if (/\.(xlsx|xls|csv|tsv|txt)$/i.test(name)) return name;
  const head = Buffer.alloc(4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return `${name}${head.equals(ZIP_MAGIC) ? '.xlsx' : '.csv'}`;
}

/** Reads a sheet file whatever its name. */
export function readSheetFile(path: string): Promise<ReadSheetResult> {
  return readSheet(path, sheetName(path));
}
