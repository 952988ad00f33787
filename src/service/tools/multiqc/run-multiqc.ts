/**
 * Running Debian's `multiqc`, the one way the service does it: for the report at the end of an
 * execution (execution-report.ts) and for the reports built on demand over a project's or a
 * lane's samples (reports/multiqc-on-demand.ts). The title and every name we know reach the
 * report as text only (multiqc-text.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { onPath } from '../../engines/tool-check';
import { makeReportOffline } from './multiqc-offline';
import { asReportText, scrubReport } from './multiqc-text';

const TIMEOUT_MS = 10 * 60_000;

/** MultiQC failed: its last line on stderr. */
export class MultiqcFailed extends Error {}

/**
 * What went wrong, in MultiQC's words: its usage errors come boxed on stdout (rich-click's
 * "╭─ Error ─╮" panel, with stderr empty), a crash ends stderr with the exception's line;
 * otherwise the exit code or signal. (The last line of stderr alone gave "Command failed:
 * multiqc --no-data-dir ..." with the whole command line for a usage error.)
 */
export function multiqcError(
  stdout: string,
  stderr: string,
  err: Error & { code?: unknown; signal?: unknown },
): string {
  for (const text of [stderr, stdout]) {
    const lines = text.split('\n');
    const start = lines.findIndex((l) => /^\s*╭─+ Error/.test(l));
    if (start < 0) continue;
    const body: string[] = [];
    for (const l of lines.slice(start + 1)) {
      if (/^\s*╰/.test(l)) break;
      body.push(l.replace(/^\s*│/, '').replace(/│\s*$/, '').trim());
    }
    const said = body.filter(Boolean).join(' ');
    if (said) return said;
  }
  const last = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  if (last) return last;
  if (typeof err.code === 'number') return `multiqc exited with code ${err.code}`;
  if (err.signal) return `multiqc was stopped (${String(err.signal)})`;
  return err.message.split('\n')[0]!;
}

/** Whether multiqc is installed here. */
export function multiqcInstalled(): boolean {
  return onPath('multiqc');
}

/**
 * Runs multiqc over `inDir` into `outDir/filename`; resolves with the report's path, or null
 * when MultiQC found nothing it reads. `names` (sample and file names, the title) are scrubbed
 * of markup in the finished report.
 */
export function runMultiqc(job: {
  inDir: string;
  outDir: string;
  filename: string;
  title: string;
  names: Array<string | null | undefined>;
  signal?: AbortSignal;
}): Promise<string | null> {
  // --flat: plots as images. Debian's MultiQC loads Highcharts and lz-string from CDNs, so its
  // interactive plots never draw offline (in the app's viewer, or a downloaded copy on a lab
  // network); images draw everywhere, and the report's own scripts (toolbox, tables) still run.
  const args = [
    '--no-data-dir',
    '--force',
    '--flat',
    '--title',
    asReportText(job.title),
    '--filename',
    job.filename,
    '--outdir',
    job.outDir,
    job.inDir,
  ];
  return new Promise((resolve, reject) => {
    const options = { timeout: TIMEOUT_MS, signal: job.signal, maxBuffer: 8 * 1024 * 1024 };
    execFile('multiqc', args, options, (err, stdout, stderr) => {
      if (err) return reject(new MultiqcFailed(multiqcError(String(stdout), String(stderr), err)));
      const report = join(job.outDir, job.filename);
      if (!existsSync(report)) return resolve(null);
      scrubReport(report, [job.title, ...job.names]);
      makeReportOffline(report);
      resolve(report);
    });
  });
}
