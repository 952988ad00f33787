/** `laneway demux`: demultiplexes a lane without the service, with the service's own engine. */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readSheet, SheetReadError } from '../../service/annotation/sheet-reader';
import { demultiplex, type DemuxResult } from '../../service/demux/demultiplexer';
import { planFromRows, type BarcodeSource } from '../../service/demux/plan';
import { UsageError, type Command } from './command';

function table(r: DemuxResult): string {
  const pct = (n: number) => (r.total_reads ? `${((100 * n) / r.total_reads).toFixed(2)}%` : '-');
  const rows = [
    ['sample', 'barcode', 'reads', 'share', 'one mismatch'],
    ...r.samples.map((s) => [s.name, s.barcode, String(s.reads), pct(s.reads), String(s.one_mismatch)]),
    ['Undetermined', '', String(r.undetermined_reads), pct(r.undetermined_reads), ''],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '),
  );
  const rate = r.seconds > 0 ? Math.round(r.total_reads / r.seconds) : r.total_reads;
  lines.push(
    '',
    `${r.total_reads} reads (${r.paired ? 'paired' : 'single'}, ${r.source} barcodes${r.layout ? ` ${r.layout}` : ''}, ${r.mismatches} mismatch${r.mismatches === 1 ? '' : 'es'} allowed) in ${r.seconds.toFixed(1)} s, ${rate} reads/s`,
  );
  if (r.top_unknown.length) {
    lines.push(
      `top unknown barcodes: ${r.top_unknown
        .slice(0, 5)
        .map((u) => `${u.barcode} (${u.count})`)
        .join(', ')}`,
    );
  }
  return lines.join('\n');
}

export const demuxCommand: Command = {
  name: 'demux',
  usage: 'demux --sheet SHEET --input R1 [--input2 R2] --out DIR [--mismatches N]',
  summary: 'demultiplex a lane by its annotation sheet, without the service',
  help: [
    'Splits a multiplexed lane into one FASTQ file per sample, exactly as the service does for',
    "a lane: barcodes inline at the 5' end (with UMI positions moved into the read name) or in",
    "the read header's index field (1:N:0:ACGTACGT, dual ACGT+TTGA). Reads without a barcode go",
    'to Undetermined. Writes NAME.fastq[.gz] (NAME_R1/_R2 for paired lanes) and demux-report.json.',
    '',
    '  --sheet SHEET          annotation sheet, xlsx or csv (Sample Name, Barcode, Organism, Category)',
    '  --input R1             read 1 (fastq or fastq.gz)',
    '  --input2 R2            read 2 of a paired lane',
    '  --out DIR              output folder',
    '  --mismatches N         0 or 1 (default: 1 where the barcodes are at least 3 apart)',
    "  --layout NNNXXXXXNN    inline layout: N = UMI, X = the Barcode column's bases",
    '  --barcodes WHERE       auto (default), inline or header',
    '  --gzip / --no-gzip     compress outputs (default: like the input)',
    '  --compression-level N  gzip level 1-9 (default 1)',
    '  --json                 print the report as JSON instead of a table',
  ].join('\n'),
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        sheet: { type: 'string' },
        input: { type: 'string' },
        input2: { type: 'string' },
        out: { type: 'string' },
        mismatches: { type: 'string' },
        layout: { type: 'string' },
        barcodes: { type: 'string' },
        gzip: { type: 'boolean' },
        'no-gzip': { type: 'boolean' },
        'compression-level': { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    for (const flag of ['sheet', 'input', 'out'] as const) {
      if (!values[flag]) throw new UsageError(`--${flag} is required`);
    }
    let mismatches: number | undefined;
    if (values.mismatches !== undefined) {
      mismatches = Number(values.mismatches);
      if (!['0', '1'].includes(values.mismatches)) throw new UsageError('--mismatches must be 0 or 1');
    }
    const source = (values.barcodes ?? 'auto') as BarcodeSource;
    if (!['auto', 'inline', 'header'].includes(source))
      throw new UsageError('--barcodes must be auto, inline or header');
    const level = values['compression-level'] === undefined ? undefined : Number(values['compression-level']);
    if (level !== undefined && !(Number.isInteger(level) && level >= 1 && level <= 9)) {
      throw new UsageError('--compression-level must be 1 to 9');
    }
    if (values.gzip && values['no-gzip']) throw new UsageError('--gzip and --no-gzip exclude each other');
    for (const file of [values.sheet!, values.input!, values.input2].filter((f): f is string => !!f)) {
      if (!existsSync(file)) throw new Error(`${file}: no such file`);
    }
    let sheet;
    try {
      sheet = await readSheet(values.sheet!, basename(values.sheet!));
    } catch (err) {
      if (!(err instanceof SheetReadError)) throw err;
      const where = err.row ? ` (row ${err.row}${err.column ? `, column ${err.column}` : ''})` : '';
      process.stderr.write(`${values.sheet}${where}: ${err.message}\n`);
      return 1;
    }
    const { plan, report } = planFromRows(sheet.rows, {
      mismatches,
      layout: values.layout,
      source,
      headers: sheet.headers,
    });
    for (const w of report.warnings) process.stderr.write(`warning: row ${w.row}, ${w.column}: ${w.message}\n`);
    if (!plan) {
      for (const e of report.errors) process.stderr.write(`error: row ${e.row}, ${e.column}: ${e.message}\n`);
      process.stderr.write(`${values.sheet}: ${report.errors.length} error(s); nothing was written\n`);
      return 1;
    }
    const result = await demultiplex(plan, {
      read1: values.input!,
      read2: values.input2,
      outDir: values.out!,
      gzipOutput: values.gzip ? true : values['no-gzip'] ? false : undefined,
      compressionLevel: level,
    });
    process.stdout.write(`${values.json ? JSON.stringify(result, null, 2) : table(result)}\n`);
    return 0;
  },
};
