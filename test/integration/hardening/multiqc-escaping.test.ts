/**
 * Issue 24 item 7 (low): "project names, titles and execution names with <script> land verbatim
 * in MultiQC reports". Real FastQC and Debian's MultiQC: the title and the sample name (FastQC
 * takes it from the file name and MultiQC from FastQC's "Filename" line) carry markup; the
 * finished report must hold neither as markup, and still name them (as look-alike text).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EngineSink } from '../../../src/service/engines/engine';
import { multiqcReport } from '../../../src/service/tools/multiqc/execution-report';
import { asReportText } from '../../../src/service/tools/multiqc/multiqc-text';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

vi.setConfig({ testTimeout: 180_000 });

describe('MultiQC reports hold our names as text only (issue 24 item 7)', () => {
  const dir = tempDir('laneway-mqc-escape-');
  afterAll(() => dir.remove());

  it('a <script> title and an <img onerror> sample name do not survive as markup', async () => {
    const sample = '<img src=x onerror=alert(2)>';
    const title = '<script>alert(1)</script> (Test Steps 2.0.0)';
    const fastq = join(dir.path, `${sample}.fastq`);
    writeFileSync(fastq, fastqText({ reads: 200, seed: 3 }));
    execFileSync('fastqc', ['-q', '-o', dir.path, fastq]);
    const outputs: string[] = [];
    const logs: string[] = [];
    const processes: string[] = [];
    const sink = {
      output: (p: string) => outputs.push(p),
      log: (_p: string, _l: string, m: string) => logs.push(m),
      process: (name: string, status: string) => processes.push(`${name} ${status}`),
    } as unknown as EngineSink;
    await multiqcReport(dir.path, title, sink, new AbortController().signal, [sample]);
    expect(outputs, logs.join('\n')).toEqual(['multiqc_report.html']);
    expect(processes).toEqual(['MultiQC report running', 'MultiQC report completed']);
    const html = readFileSync(join(dir.path, 'multiqc_report.html'), 'utf8');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(asReportText('<script>alert(1)</script>'));
    expect(html).toContain(asReportText(sample));
  });
});
