/** `laneway demux`: demultiplexes a lane without the service, with the service's own engine. */
import { existsSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readSheet, SheetReadError } from '../../service/sheets/sheet-reader';
import { demultiplex, type DemuxResult } from '../../service/tools/demux/demultiplexer';
import { phase } from '../../service/tools/demux/phase-times';
import { parseMismatches, planFromRows, type BarcodeSource } from '../../service/tools/demux/plan';
import { choosePlacement } from '../../service/tools/demux/placement';
import { UsageError, type Command } from './command';
import { repeatedFiles } from '../../shared/pipelines/demux-parameters';

function table(r: DemuxResult): string {
  const pct = (n: number) => (r.total_reads ? `${((100 * n) / r.total_reads).toFixed(2)}%` : '-');
  const rows = [
    ['sample', 'barcode', 'reads', 'share', 'one mismatch', 'two mismatches'],
    ...r.samples.map((s) => [
      s.name,
      s.barcode,
      String(s.reads),
      pct(s.reads),
      String(s.one_mismatch),
      String(s.two_mismatches),
    ]),
    ['Undetermined', '', String(r.undetermined_reads), pct(r.undetermined_reads), '', ''],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '),
  );
  const rate = r.seconds > 0 ? Math.round(r.total_reads / r.seconds) : r.total_reads;
  const allowed = r.segments
    .map(
      (s, i) => `${r.segments.length > 1 ? `${s} ` : ''}${r.segment_mismatches[i]} of at most ${r.max_mismatches[i]}`,
    )
    .join(', ');
  const d = r.detection;
  lines.push('');
  if (d) {
    const share = (n: number) => `${n} of the first ${d.sampled_reads} reads`;
    lines.push(
      `barcodes ${d.chosen.description} (${d.given ? 'as given' : 'chosen'}: ${share(d.chosen.assigned)})${d.runner_up ? `; next best ${d.runner_up.description} (${share(d.runner_up.assigned)})` : ''}`,
    );
  }
  lines.push(
    `${r.total_reads} reads (${r.paired ? 'paired' : 'single'}, ${r.source} barcodes${r.layout ? ` ${r.layout}` : ''}${r.barcode_read === 2 ? ' on read 2' : ''}, ${r.mismatches} mismatch${r.mismatches === 1 ? '' : 'es'} allowed) in ${r.seconds.toFixed(1)} s, ${rate} reads/s`,
    `mismatches allowed: ${allowed}`,
    `undetermined: ${r.undetermined_reads} of ${r.total_reads} reads (${pct(r.undetermined_reads)})`,
  );
  if (r.hopping) {
    lines.push(
      `${r.source === 'inline' ? "unexpected 5'+3' pairs" : 'index hopping'}: ${r.hopping.reads} reads (${(100 * r.hopping.fraction).toFixed(3)}%)${r.hopping.top.length ? `, most often ${r.hopping.top[0]!.barcode} (${r.hopping.top[0]!.samples.join(' x ')})` : ''}`,
    );
  }
  if (r.top_unknown.length) {
    lines.push(
      `top unknown barcodes: ${r.top_unknown
        .slice(0, 5)
        .map((u) => `${u.barcode} (${u.count}${u.nearest ? `, nearest ${u.nearest} at ${u.distance}` : ''})`)
        .join(', ')}`,
    );
  }
  if (r.undetermined_fraction > 0.5) {
    lines.push(
      `WARNING: most reads are undetermined${r.diagnosis ? `: ${r.diagnosis.message}` : '; check the layout, the barcode read and the index orientation'}`,
    );
  }
  return lines.join('\n');
}

export const demuxCommand: Command = {
  help: [
    'Splits a multiplexed lane into one FASTQ file per sample, exactly as the service does for',
    "a lane. Barcodes inline at the 5' end (NNNACGTACNN: N = UMI, moved into the read name;",
    "mixed lengths in one lane are fine), at the 3' end (...ACGTACNNNN) or both ends as",
    "combinatorial pairs (NNNACGTACNN...TTGACCNNNN); or index reads: the read header's index",
    'field (1:N:0:ACGTACGT, dual ACGT+TTGA) or I1/I2 files. Reads without a sample go to',
    'Undetermined. Writes NAME.fastq[.gz] (NAME_R1/_R2 for paired lanes) and demux-report.json',
    '(reads per sample, undetermined fraction, mismatches used, top unknown barcodes with their',
    'nearest sample, index hopping for dual indexes).',
    '',
    '  --sheet SHEET          annotation sheet, xlsx or csv (Sample Name, Barcode, Organism, Category)',
    '  --input R1             read 1 (fastq or fastq.gz)',
    '  --input2 R2            read 2 of a paired lane',
    '  --index1 I1            index read 1 (i7) as a FASTQ file',
    '  --index2 I2            index read 2 (i5) as a FASTQ file',
    '  --out DIR              output folder',
    "  --mismatches N[,M]     0 to 2, or one count per index (i7,i5) or end (5',3');",
    '                         default: 1 where the barcodes are at least 3 apart',
    "  --layout LAYOUT        inline layout: N = UMI, X = the Barcode column's bases, e.g.",
    "                         NNNXXXXXXNN, ...XXXXXXNNNN (3'), NNNXXXXXXNN...XXXXXXNNNN",
    '  --barcode-read 1|2     the read that carries inline barcodes (default 1)',
    '  --barcodes WHERE       auto (default: chosen from the first reads), inline, header or index-reads',
    "  --adapter BASES        the 3' adapter a 3' barcode sits before (default: a known adapter",
    '                         found in the reads: TruSeq, Nextera or small RNA)',
    '  --force                demultiplex even when most reads would be undetermined',
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
        index1: { type: 'string' },
        index2: { type: 'string' },
        'barcode-read': { type: 'string' },
        out: { type: 'string' },
        mismatches: { type: 'string' },
        layout: { type: 'string' },
        barcodes: { type: 'string' },
        gzip: { type: 'boolean' },
        'no-gzip': { type: 'boolean' },
        'compression-level': { type: 'string' },
        json: { type: 'boolean' },
        adapter: { type: 'string' },
        force: { type: 'boolean' },
      },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    for (const flag of ['sheet', 'input', 'out'] as const) {
      if (!values[flag]) throw new UsageError(`--${flag} is required`);
    }
    let mismatches: number[] | undefined;
    if (values.mismatches !== undefined) {
      mismatches = parseMismatches(values.mismatches) ?? undefined;
      if (!mismatches || mismatches.some((m) => m > 2)) {
        throw new UsageError('--mismatches must be 0, 1 or 2, or two counts like 1,0');
      }
    }
    const source = (values.barcodes ?? (values.index1 ? 'index-reads' : 'auto')) as BarcodeSource;
    const adapter = values.adapter?.trim().toUpperCase();
    if (adapter !== undefined && !/^[ACGT]{3,100}$/.test(adapter)) {
      throw new UsageError('--adapter must be 3 to 100 bases of A, C, G and T');
    }
    if (!['auto', 'inline', 'header', 'index-reads'].includes(source))
      throw new UsageError('--barcodes must be auto, inline, header or index-reads');
    if (values.index2 && !values.index1) throw new UsageError('--index2 needs --index1');
    const barcodeRead = values['barcode-read'] === undefined ? 1 : Number(values['barcode-read']);
    if (barcodeRead !== 1 && barcodeRead !== 2) throw new UsageError('--barcode-read must be 1 or 2');
    if (barcodeRead === 2 && !values.input2) throw new UsageError('--barcode-read 2 needs --input2');
    const level = values['compression-level'] === undefined ? undefined : Number(values['compression-level']);
    if (level !== undefined && !(Number.isInteger(level) && level >= 1 && level <= 9)) {
      throw new UsageError('--compression-level must be 1 to 9');
    }
    if (values.gzip && values['no-gzip']) throw new UsageError('--gzip and --no-gzip exclude each other');
    for (const file of [values.sheet!, values.input!, values.input2, values.index1, values.index2].filter(
      (f): f is string => !!f,
    )) {
      if (!existsSync(file)) throw new Error(`${file}: no such file`);
    }
    // One file as two of the lane's reads once ran (read 1 paired with itself), as the pipeline did.
    const reads = (['input', 'input2', 'index1', 'index2'] as const).map(
      (flag) => [flag, values[flag] && realpathSync(values[flag])] as const,
    );
    const [repeated] = Object.entries(repeatedFiles(reads, (flag) => `--${flag}`));
    if (repeated) throw new UsageError(`--${repeated[0]} ${repeated[1]}`);
    phase('arguments');
    let sheet;
    try {
      sheet = await readSheet(values.sheet!, basename(values.sheet!));
    } catch (err) {
      if (!(err instanceof SheetReadError)) throw err;
      const where = err.row ? ` (row ${err.row}${err.column ? `, column ${err.column}` : ''})` : '';
      process.stderr.write(`${values.sheet}${where}: ${err.message}\n`);
      return 1;
    }
    phase('sheet read');
    const { plan, report } = planFromRows(sheet.rows, {
      mismatches,
      layout: values.layout,
      source,
      barcodeRead,
      headers: sheet.headers,
    });
    for (const w of report.warnings) process.stderr.write(`warning: row ${w.row}, ${w.column}: ${w.message}\n`);
    if (!plan) {
      for (const e of report.errors) process.stderr.write(`error: row ${e.row}, ${e.column}: ${e.message}\n`);
      process.stderr.write(`${values.sheet}: ${report.errors.length} error(s); nothing was written\n`);
      return 1;
    }
    // Where the barcodes are, from the first reads, as the service does for a lane.
    const chosen = await choosePlacement(
      plan,
      { read1: values.input!, read2: values.input2, index1: values.index1, index2: values.index2 },
      { given: values.barcodes !== undefined && values.barcodes !== 'auto', adapter },
    );
    if (chosen.detection.refusal && !values.force) {
      process.stderr.write(`error: ${chosen.detection.refusal}\n`);
      process.stderr.write('nothing was written (--force demultiplexes all the same)\n');
      return 1;
    }
    phase('placement chosen');
    const result = await demultiplex(chosen.plan, {
      detection: chosen.detection,
      read1: values.input!,
      read2: values.input2,
      index1: values.index1,
      index2: values.index2,
      outDir: values.out!,
      gzipOutput: values.gzip ? true : values['no-gzip'] ? false : undefined,
      compressionLevel: level,
    });
    phase('demultiplexed');
    process.stdout.write(`${values.json ? JSON.stringify(result, null, 2) : table(result)}\n`);
    return 0;
  },
};
