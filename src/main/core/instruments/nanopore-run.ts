/**
 * MinKNOW's run files, read as ONT's output specification describes them
 * (https://nanoporetech.github.io/ont-output-specifications/latest/):
 * - final_summary_{flow_cell_id}_{short_protocol_run_id}_{short_run_id}.txt: `key=value` lines
 *   (acquisition_stopped, fastq_files_in_final_dest ...), written once every file is written;
 * - output_hash_{flow_cell_id}_{daq_start_time}_{short_protocol_run_id}.csv: a header row and one
 *   row per output file; `file_path` (relative to the run folder) and `file_hash` (sha256, empty
 *   for files MinKNOW does not hash, such as pod5) are found by name, never by position;
 * - sample_sheet_{flow_cell_id}_{daq_start_time}_{short_protocol_run_id}.csv: `barcode`
 *   (barcodeNN) and `alias`, the name the technician typed for that barcode.
 */
import { csvTable, missingColumns } from './csv-table';

/** The `key=value` fields of a final summary. */
export function readFinalSummary(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return fields;
}

export interface OutputHash {
  /** Relative to the run folder, with forward slashes. */
  path: string;
  /** Lower-case sha256. */
  sha256: string;
}

/** The hashed files of an output hash file; throws naming the columns it lacks. */
export function readOutputHashes(text: string, fileName: string): OutputHash[] {
  const table = csvTable(text);
  const missing = missingColumns(table, ['file_path', 'file_hash']);
  if (missing.length) throw new Error(`${fileName} has no ${missing.join(' or ')} column`);
  const out: OutputHash[] = [];
  for (const row of table.rows) {
    const hash = (row.file_hash ?? '').toLowerCase();
    const path = (row.file_path ?? '').replace(/\\/g, '/');
    // Empty hashes are files MinKNOW does not hash (pod5): nothing to check.
    if (!path || !hash) continue;
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`${fileName}: "${row.file_hash}" is not a sha256 for ${path}`);
    if (path.split('/').includes('..') || path.startsWith('/'))
      throw new Error(`${fileName}: ${path} is outside the run folder`);
    out.push({ path, sha256: hash });
  }
  return out;
}

/** barcodeNN -> alias from a MinKNOW sample sheet (empty when it has no aliases). */
export function readBarcodeAliases(text: string): Map<string, string> {
  const table = csvTable(text);
  const aliases = new Map<string, string>();
  if (missingColumns(table, ['barcode']).length) return aliases;
  // The specification names the column `alias`; some exports call it `barcode_alias`.
  const column = table.header.some((h) => h.toLowerCase() === 'alias') ? 'alias' : 'barcode_alias';
  for (const row of table.rows) {
    const barcode = (row.barcode ?? '').toLowerCase();
    const alias = row[column] ?? '';
    if (/^barcode\d+$/.test(barcode) && alias && alias !== barcode) aliases.set(barcode, alias);
  }
  return aliases;
}
