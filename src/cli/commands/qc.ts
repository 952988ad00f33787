/** `laneway qc`: quality control of one FASTQ file without the service (the pipeline's own code). */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { renderQcHtml } from '../../service/tools/qc/qc-html';
import type { QcResult } from '../../service/tools/qc/qc-result';
import { runQc } from '../../service/tools/qc/qc-run';
import { UsageError, type Command } from './command';

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`);
  return n;
}

/** Modules that warn or fail at FastQC's default limits, e.g. "fail: Adapter content". */
function flagged(r: QcResult): string {
  const by = (status: string) => r.flags.filter((f) => f.status === status).map((f) => f.title);
  const parts = (['fail', 'warn'] as const).filter((s) => by(s).length).map((s) => `${s}: ${by(s).join(', ')}`);
  return parts.length ? `${parts.join('; ')} (FastQC limits)` : 'all pass (FastQC limits)';
}

function summary(r: QcResult): string {
  const s = r.summary;
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const len = s.min_length === s.max_length ? `${s.min_length}` : `${s.min_length}-${s.max_length}`;
  const adapters = r.adapter_content.adapters
    .map((a, i) => [a.name, r.adapter_content.totals[i] ?? 0] as const)
    .filter(([, v]) => v >= 0.1)
    .map(([n, v]) => `${n} ${v.toFixed(2)}%`);
  return [
    `${r.file}${r.truncated ? ' (first reads only)' : ''}`,
    `  reads     ${s.total_reads}`,
    `  encoding  ${s.encoding} (Phred+${s.quality_offset})`,
    `  bases     ${s.total_bases} (length ${len})`,
    `  Q20       ${s.q20_bases} (${pct(s.q20_rate)})`,
    `  Q30       ${s.q30_bases} (${pct(s.q30_rate)})`,
    `  GC        ${pct(s.gc_content)}`,
    `  N bases   ${s.n_bases}`,
    `  duplicate ${pct(r.duplication.duplicate_rate)} of ${r.duplication.sampled_reads} sampled reads`,
    `  adapters  ${adapters.length ? adapters.join(', ') : 'none above 0.1%'}`,
    `  flags     ${flagged(r)}`,
  ].join('\n');
}

export const qcCommand: Command = {
  help: [
    'Counts reads, bases, Q20/Q30 and GC exactly as fastp does, with per-position quality,',
    'base and N content, length and GC distributions, adapter content, duplication and',
    'overrepresented sequences. Prints a short summary.',
    '',
    '  --json OUT       write the full result as JSON ("-" for standard output)',
    '  --html OUT       write a self-contained HTML report',
    '  --threads N      scanning threads (default: up to 2)',
    '  --max-reads N    stop after N reads',
    '  --phred64        read a Phred+64 (Illumina 1.3-1.7) or Solexa file with offset 64;',
    '                   without it such a file is refused (its encoding is found as FastQC does)',
  ].join('\n'),
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'string' },
        html: { type: 'string' },
        threads: { type: 'string' },
        'max-reads': { type: 'string' },
        phred64: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one FASTQ file');
    const threads = positiveInt(values.threads, '--threads') ?? Math.min(2, availableParallelism());
    const maxReads = positiveInt(values['max-reads'], '--max-reads');
    const result = await runQc(positionals[0]!, {
      threads,
      maxReads,
      qualityEncoding: values.phred64 ? 'phred64' : 'auto',
    });
    if (values.json === '-') process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
    else if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 1)}\n`);
    if (values.html) writeFileSync(values.html, renderQcHtml(result));
    (values.json === '-' ? process.stderr : process.stdout).write(`${summary(result)}\n`);
    return 0;
  },
};
