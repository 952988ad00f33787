/**
 * The demultiplexing child process: `node demux-worker.ts JOB.json`. It speaks the engine
 * protocol (protocol.ts) on stdout: one process named "demultiplex" with progress, a log line
 * per sample, an output message per FASTQ file, and `demux-report.json` in outDir with the
 * per-sample counts and the top unknown barcodes. Exit code 0 on success, 1 on failure.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { watchParent } from '../../../node/parent-watch';
import { emit } from '../../engines/protocol';
import { startUsage, usageMessage } from '../../engines/self-usage';
import type { AnnotationRow } from '../../../shared/annotation/columns';
import { demultiplex, REPORT_FILE, type DemuxResult } from './demultiplexer';
import { DEMUX_PROCESS, type DemuxJob } from './demux-job';
import { parseMismatches, planFromRows } from './plan';
import { choosePlacement } from './placement';
import { readSheetFile } from './sheet-file';

const process_ = DEMUX_PROCESS;

function log(level: 'INFO' | 'WARNING' | 'ERROR', message: string): void {
  emit({ type: 'log', process: process_, level, message });
}

async function rowsOf(job: DemuxJob): Promise<{ rows: AnnotationRow[]; headers?: string[] }> {
  if (Array.isArray(job.parameters.rows)) return { rows: job.parameters.rows };
  const sheet = job.parameters.sheet ?? job.files?.annotation ?? job.files?.sheet;
  if (typeof sheet !== 'string') throw new Error('The job names no annotation sheet (parameters.rows or sheet)');
  const read = await readSheetFile(sheet);
  return { rows: read.rows, headers: read.headers };
}

/** The job's mismatches: one count, one per segment, or "1,0"; the second segment's may come apart. */
function jobMismatches(p: DemuxJob['parameters']): number | number[] | undefined {
  let m: number[] | undefined;
  if (typeof p.mismatches === 'number') m = [p.mismatches];
  else if (Array.isArray(p.mismatches)) m = p.mismatches.map(Number);
  else if (typeof p.mismatches === 'string' && p.mismatches.trim()) {
    m = parseMismatches(p.mismatches) ?? undefined;
    if (!m) throw new Error(`mismatches "${p.mismatches}" must be a count or two counts like 1,0`);
  }
  if (typeof p.mismatches_index2 === 'number') m = [m?.[0] ?? p.mismatches_index2, p.mismatches_index2];
  return m;
}

/** Runs one job file; resolves with the exit code. */
export async function runDemuxJob(jobPath: string): Promise<number> {
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as DemuxJob;
  emit({ type: 'process', process: process_, status: 'running' });
  const meter = startUsage();
  const input = job.samples[0];
  if (!input || job.samples.length > 1) {
    log('ERROR', `Demultiplexing takes one lane (its read 1 and read 2), not ${job.samples.length} inputs`);
    emit({ type: 'process', process: process_, status: 'failed', exit_code: 1 });
    return 1;
  }
  const p = job.parameters;
  const indexFiles = { index1: job.files?.index_read1, index2: job.files?.index_read2 };
  const { rows, headers } = await rowsOf(job);
  const { plan: asked, report } = planFromRows(rows, {
    mismatches: jobMismatches(p),
    layout: p.layout || undefined,
    // Index-read files name where the indexes are, unless the job says otherwise.
    source: indexFiles.index1 && (p.barcode_source ?? 'auto') === 'auto' ? 'index-reads' : p.barcode_source,
    barcodeRead: p.barcode_read === 2 ? 2 : 1,
    headers,
  });
  for (const w of report.warnings) log('WARNING', `Row ${w.row}, ${w.column}: ${w.message}`);
  if (!asked) {
    for (const e of report.errors) log('ERROR', `Row ${e.row}, ${e.column}: ${e.message}`);
    emit({ type: 'process', process: process_, status: 'failed', exit_code: 1 });
    return 1;
  }
  // Where the barcodes are, from the first reads (the lane's checks ran the same on the same reads).
  const { plan, detection } = await choosePlacement(
    asked,
    { read1: input.read1, read2: input.read2, ...indexFiles },
    {
      given: p.placement_given ?? (p.barcode_source ?? 'auto') !== 'auto',
      adapter: typeof p.adapter === 'string' && p.adapter ? p.adapter.toUpperCase() : undefined,
    },
  );
  log(
    'INFO',
    `Barcodes ${detection.chosen.description}: ${detection.chosen.assigned} of the first ${detection.sampled_reads} reads assigned${detection.runner_up ? `; next best ${detection.runner_up.description}, ${detection.runner_up.assigned}` : ''}`,
  );
  if (detection.refusal) log('WARNING', detection.refusal);
  const abort = new AbortController();
  process.once('SIGTERM', () => abort.abort());
  let last = -1;
  const result: DemuxResult = await demultiplex(plan, {
    read1: input.read1,
    read2: input.read2,
    ...indexFiles,
    outDir: job.outDir,
    gzipOutput: p.gzip_output,
    compressionLevel: p.compression_level,
    maxReads: job.maxReads,
    signal: abort.signal,
    detection,
    onProgress: (fraction) => {
      const pct = Math.floor(fraction * 100);
      if (pct > last) {
        last = pct;
        emit({ type: 'progress', process: process_, progress: pct });
      }
    },
  });
  log(
    'INFO',
    `${result.total_reads} reads: ${result.assigned_reads} assigned (${result.source} barcodes, ${result.segments.map((s, i) => `${s} ${result.segment_mismatches[i]} of at most ${result.max_mismatches[i]} mismatches`).join(', ')}), ${result.undetermined_reads} undetermined (${(100 * result.undetermined_fraction).toFixed(2)}%)`,
  );
  if (result.undetermined_fraction > 0.5) {
    log(
      'WARNING',
      `Most reads are undetermined (${(100 * result.undetermined_fraction).toFixed(1)}%)${result.diagnosis ? `: ${result.diagnosis.message}` : ''}`,
    );
  }
  if (result.hopping?.reads) {
    log(
      'INFO',
      `Index hopping: ${result.hopping.reads} reads (${(100 * result.hopping.fraction).toFixed(3)}%) carry the indexes of two different samples`,
    );
  }
  for (const s of result.samples) {
    log(
      'INFO',
      `${s.name} (${s.barcode}): ${s.reads} reads, ${s.one_mismatch} with one mismatch, ${s.two_mismatches} with two`,
    );
    for (const f of s.files) emit({ type: 'output', path: f, data_type: 'fastq' });
  }
  for (const f of result.undetermined_files) emit({ type: 'output', path: f, data_type: 'fastq' });
  emit({ type: 'output', path: REPORT_FILE, data_type: 'json' });
  if (result.top_unknown.length) {
    log(
      'INFO',
      `Top unknown barcodes: ${result.top_unknown.map((u) => `${u.barcode} ${u.count}${u.nearest ? ` (nearest ${u.nearest}, ${u.distance} apart)` : ''}`).join(', ')}`,
    );
  }
  emit({ type: 'progress', process: process_, progress: 100 });
  emit(usageMessage(process_, meter));
  emit({ type: 'process', process: process_, status: 'completed', exit_code: 0 });
  return 0;
}

// Started as a process (not imported by a test): run the job named on the command line.
if (process.argv[2] && import.meta.url.endsWith(basename(process.argv[1] ?? '___'))) {
  // A service killed with SIGKILL cannot stop its worker: it stops itself.
  watchParent((reason) => {
    process.stderr.write(`demux: ${reason}; stopping\n`);
    process.exit(1);
  });
  // exitCode, not exit(): stdout is a pipe, and exit() could cut its last lines.
  runDemuxJob(process.argv[2]).then(
    (code) => (process.exitCode = code),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      emit({ type: 'process', process: process_, status: 'failed', exit_code: 1 });
      process.exitCode = 1;
    },
  );
}
