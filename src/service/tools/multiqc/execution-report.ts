/**
 * A MultiQC report per execution: run over the execution's output folder once the engine is
 * done, for versions whose manifest asks for it (`"multiqc": true`). MultiQC reads the tools'
 * own outputs (samtools flagstat and markdup, bcftools stats); the report becomes an output of
 * the run (`multiqc_report.html`, data type multiqc). Where multiqc is not installed, or finds
 * nothing it knows, the run says so in its log and completes without one.
 */
import type { EngineSink } from '../../engines/engine';
import { multiqcInstalled, runMultiqc } from './run-multiqc';

/**
 * The run's process for the report (its log lines and its row among the processes). Not
 * `multiqc`: many published Snakemake workflows have a rule of that name, and their run's
 * process row and log lines would have been this step's too. A name with a space and no
 * parentheses is no Snakemake job ("rule (wildcards)") nor Nextflow task ("NAME (tag)").
 */
export const MULTIQC_PROCESS = 'MultiQC report';
const PROCESS = MULTIQC_PROCESS;

/**
 * Runs multiqc on `outDir` as the run's `MultiQC report` process (Debian's MultiQC takes some seconds
 * even on a small run: without a process of its own the run sat at "3 of 3 samples done" with
 * nothing said); reports the HTML as an output when one was written. A failure is the process's,
 * with a warning: the run's own results stand.
 */
export async function multiqcReport(
  outDir: string,
  title: string,
  sink: EngineSink,
  signal: AbortSignal,
  names: string[] = [],
): Promise<void> {
  if (!multiqcInstalled()) {
    sink.log(PROCESS, 'WARNING', 'multiqc is not installed here: no MultiQC report');
    return;
  }
  sink.process(PROCESS, 'running');
  sink.log(PROCESS, 'INFO', 'MultiQC: building the report over the results of the run');
  let report: string | null;
  try {
    report = await runMultiqc({ inDir: outDir, outDir, filename: 'multiqc_report.html', title, names, signal });
  } catch (err) {
    // A cancelled run ends its processes itself (cancelled, not failed).
    if (signal.aborted) return;
    sink.log(PROCESS, 'WARNING', `MultiQC failed: ${(err as Error).message}`);
    sink.process(PROCESS, 'failed');
    return;
  }
  if (report) {
    sink.output('multiqc_report.html', 'multiqc');
    sink.log(PROCESS, 'INFO', 'MultiQC report written: multiqc_report.html');
  } else sink.log(PROCESS, 'INFO', 'MultiQC found no results it reads: no report');
  sink.process(PROCESS, 'completed', 0);
}
