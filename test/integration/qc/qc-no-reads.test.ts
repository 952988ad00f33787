/**
 * A FASTQ file with no reads is a result with 0 reads, not an error: Debian's FastQC 0.11.9
 * reports an empty file, a file of blank lines and an empty gzip member as "Total Sequences 0"
 * (Basic Statistics pass), and a sample of a demultiplexed lane that no read matched has such a
 * file. Ours says so with one `no_reads` warning and judges no module on nothing (issue 24: a
 * QC run failed on a lane's empty output).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fastpJson } from '../../../src/service/tools/qc/qc-fastp-json';
import { NO_READS_MODULE } from '../../../src/service/tools/qc/qc-flags';
import { renderQcHtml } from '../../../src/service/tools/qc/qc-html';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { tempDir } from '../../helpers/temp';

vi.setConfig({ testTimeout: 120_000 });

const dir = tempDir('laneway-qc-no-reads-');
afterAll(() => dir.remove());

const FILES: Record<string, string | Buffer> = {
  'empty.fastq': '',
  'blank.fastq': '\n\n',
  'member.fastq.gz': gzipSync(Buffer.alloc(0)),
};

/** FastQC's "Total Sequences" from its fastqc_data.txt. */
function fastqcTotal(file: string): number {
  execFileSync('fastqc', ['-q', '--extract', '-o', dir.path, join(dir.path, file)], { stdio: 'ignore' });
  const base = file.replace(/\.fastq(\.gz)?$/, '');
  const data = readFileSync(join(dir.path, `${base}_fastqc`, 'fastqc_data.txt'), 'utf8');
  return Number(/^Total Sequences\t(\d+)$/m.exec(data)![1]);
}

describe('QC of a FASTQ file with no reads', () => {
  for (const [name, content] of Object.entries(FILES)) {
    it(`${name}: 0 reads with a no_reads warning, as FastQC counts 0 sequences`, async () => {
      writeFileSync(join(dir.path, name), content);
      const r = await runQc(join(dir.path, name), { threads: 2, threadedMinBytes: 0, sample: 'S09' });
      expect(r.summary).toMatchObject({ total_reads: 0, total_bases: 0, q30_rate: 0, gc_content: 0, mean_length: 0 });
      expect(r.compressed).toBe(name.endsWith('.gz'));
      expect(r.flags[0]).toMatchObject({ module: NO_READS_MODULE, status: 'warn' });
      expect(r.flags[0]!.detail).toMatch(/no reads/);
      // Nothing judged on nothing: every FastQC module passes, as FastQC's Basic Statistics does.
      expect(r.flags.slice(1).every((f) => f.status === 'pass' && f.detail === 'no reads to judge')).toBe(true);
      expect(r.flags).toHaveLength(10);
      expect(fastqcTotal(name)).toBe(0);
      // The report and MultiQC's fastp JSON are written without a NaN or a division by zero.
      const html = renderQcHtml(r);
      expect(html).not.toMatch(/NaN|Infinity/);
      expect(html).toContain('No reads');
      const fastp = fastpJson('S09', 'S09', [r]);
      expect(JSON.stringify(fastp)).not.toMatch(/NaN|null/);
      expect(fastp.summary.before_filtering.total_reads).toBe(0);
    });
  }
});
