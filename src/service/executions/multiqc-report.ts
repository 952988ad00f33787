/**
 * A MultiQC report per execution (Debian's multiqc): run over the execution's output folder
 * once the engine is done, for versions whose manifest asks for it (`"multiqc": true`). MultiQC
 * reads the tools' own outputs (samtools flagstat and markdup, bcftools stats); the report
 * becomes an output of the run (`multiqc_report.html`, data type multiqc). Where multiqc is not
 * installed, or finds nothing it knows, the run says so in its log and completes without one.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineSink } from '../engines/engine';
import { onPath } from '../engines/tool-check';
import { asReportText, scrubReport } from '../engines/multiqc-text';
import { makeReportOffline } from '../engines/multiqc-offline';

const TIMEOUT_MS = 10 * 60_000;

/** Runs multiqc on `outDir`; reports the HTML as an output when one was written. */
export async function multiqcReport(
  outDir: string,
  title: string,
  sink: EngineSink,
  signal: AbortSignal,
  names: string[] = [],
): Promise<void> {
  if (!onPath('multiqc')) {
    sink.log('multiqc', 'WARNING', 'multiqc is not installed here: no MultiQC report');
    return;
  }
  // --flat: plots as images. Debian's MultiQC loads Highcharts and lz-string from CDNs, so its
  // interactive plots never draw offline (in the app's viewer, or a downloaded copy on a lab
  // network); images draw everywhere, and the report's own scripts (toolbox, tables) still run.
  const args = [
    '--no-data-dir',
    '--force',
    '--flat',
    '--title',
    asReportText(title),
    '--filename',
    'multiqc_report.html',
    '--outdir',
    outDir,
    outDir,
  ];
  await new Promise<void>((resolve) => {
    execFile('multiqc', args, { timeout: TIMEOUT_MS, signal, maxBuffer: 8 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err)
        sink.log('multiqc', 'WARNING', `MultiQC failed: ${String(stderr).trim().split('\n').at(-1) ?? err.message}`);
      resolve();
    });
  });
  if (existsSync(join(outDir, 'multiqc_report.html'))) {
    // Names from inside the tools' outputs (sample names) are made text too (report-text.ts).
    scrubReport(join(outDir, 'multiqc_report.html'), [title, ...names]);
    makeReportOffline(join(outDir, 'multiqc_report.html'));
    sink.output('multiqc_report.html', 'multiqc');
  } else sink.log('multiqc', 'INFO', 'MultiQC found no results it reads: no report');
}
