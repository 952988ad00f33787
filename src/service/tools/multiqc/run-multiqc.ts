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
    execFile('multiqc', args, options, (err, _stdout, stderr) => {
      if (err) return reject(new MultiqcFailed(String(stderr).trim().split('\n').at(-1) || err.message));
      const report = join(job.outDir, job.filename);
      if (!existsSync(report)) return resolve(null);
      scrubReport(report, [job.title, ...job.names]);
      makeReportOffline(report);
      resolve(report);
    });
  });
}
