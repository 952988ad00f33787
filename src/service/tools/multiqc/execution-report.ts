/**
 * A MultiQC report per execution: run over the execution's output folder once the engine is
 * done, for versions whose manifest asks for it (`"multiqc": true`). MultiQC reads the tools'
 * own outputs (samtools flagstat and markdup, bcftools stats); the report becomes an output of
 * the run (`multiqc_report.html`, data type multiqc). Where multiqc is not installed, or finds
 * nothing it knows, the run says so in its log and completes without one.
 */
import type { EngineSink } from '../../engines/engine';
import { multiqcInstalled, runMultiqc } from './run-multiqc';

/** Runs multiqc on `outDir`; reports the HTML as an output when one was written. */
export async function multiqcReport(
  outDir: string,
  title: string,
  sink: EngineSink,
  signal: AbortSignal,
  names: string[] = [],
): Promise<void> {
  if (!multiqcInstalled()) {
    sink.log('multiqc', 'WARNING', 'multiqc is not installed here: no MultiQC report');
    return;
  }
  let report: string | null = null;
  try {
    report = await runMultiqc({ inDir: outDir, outDir, filename: 'multiqc_report.html', title, names, signal });
  } catch (err) {
    sink.log('multiqc', 'WARNING', `MultiQC failed: ${(err as Error).message}`);
  }
  if (report) sink.output('multiqc_report.html', 'multiqc');
  else sink.log('multiqc', 'INFO', 'MultiQC found no results it reads: no report');
}
