/** The trimming pipeline process end to end: a real child process, a job file, protocol lines. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineJob } from '../../../src/service/engines/protocol';
import type { TrimReport } from '../../../src/service/tools/trim/trim-run';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { runWorkerJob } from '../../helpers/engine-worker';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-trim-worker-');
afterAll(() => dir.remove());

const WORKER = new URL('../../../src/service/tools/trim/', import.meta.url).href;
const UNIVERSAL = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA';

const runWorker = (job: EngineJob) => runWorkerJob(WORKER, './trim-worker', dir.path, job);

describe('trim-worker', () => {
  it('trims paired reads with a detected adapter into gzip FASTQ usable as input downstream', async () => {
    const r1 = join(dir.path, 's_R1.fq');
    const r2 = join(dir.path, 's_R2.fq');
    writeFileSync(r1, fastqText({ reads: 1500, length: 100, seed: 51, adapter: { sequence: UNIVERSAL, rate: 0.4 } }));
    writeFileSync(r2, fastqText({ reads: 1500, length: 100, seed: 52, adapter: { sequence: UNIVERSAL, rate: 0.4 } }));
    const outDir = join(dir.path, 'out');
    const { code, messages, stderr } = await runWorker({
      parameters: { min_length: 25 },
      samples: [{ id: 3, name: 'S1', read1: r1, read2: r2, metadata: {} }],
      outDir,
      cpus: 1,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(messages.filter((m) => m.type === 'process')).toEqual([
      { type: 'process', process: 'trim:S1', status: 'running' },
      { type: 'process', process: 'trim:S1', status: 'completed', exit_code: 0 },
    ]);
    expect(messages).toContainEqual({
      type: 'log',
      process: 'trim:S1',
      level: 'INFO',
      message: `read 1 adapter: Illumina Universal Adapter ${UNIVERSAL} (detected)`,
    });
    expect(messages.filter((m) => m.type === 'output')).toEqual([
      { type: 'output', path: 'S1_R1.trimmed.fastq.gz', data_type: 'fastq', sample_id: 3 },
      { type: 'output', path: 'S1_R2.trimmed.fastq.gz', data_type: 'fastq', sample_id: 3 },
      { type: 'output', path: 'S1.trim.json', data_type: 'trim_report', sample_id: 3 },
    ]);
    const progress = messages.filter((m) => m.type === 'progress').map((m) => (m as { progress: number }).progress);
    expect(progress.at(-1)).toBe(100);
    const report = JSON.parse(readFileSync(join(outDir, 'S1.trim.json'), 'utf8')) as TrimReport;
    expect(report.reads.input).toBe(1500);
    expect(report.reads.with_adapter_read1).toBeGreaterThan(500);
    expect(report.reads.written + report.reads.too_short).toBe(1500);
    // the trimmed output is FASTQ that quality control (a downstream pipeline) reads
    const qc1 = await runQc(join(outDir, 'S1_R1.trimmed.fastq.gz'));
    const qc2 = await runQc(join(outDir, 'S1_R2.trimmed.fastq.gz'));
    expect(qc1.summary.total_reads).toBe(report.reads.written);
    expect(qc2.summary.total_reads).toBe(report.reads.written);
    expect(qc1.summary.total_bases + qc2.summary.total_bases).toBe(report.bases.written);
    expect(qc1.adapter_content.totals[0]).toBe(0);
    const names1 = gunzipSync(readFileSync(join(outDir, 'S1_R1.trimmed.fastq.gz')))
      .toString()
      .split('\n')
      .filter((_, i) => i % 4 === 0);
    const names2 = gunzipSync(readFileSync(join(outDir, 'S1_R2.trimmed.fastq.gz')))
      .toString()
      .split('\n')
      .filter((_, i) => i % 4 === 0);
    expect(names1).toEqual(names2);
  });

  it('honours maxReads and plain output', async () => {
    const r1 = join(dir.path, 'm.fq');
    writeFileSync(r1, fastqText({ reads: 800, length: 60, seed: 53 }));
    const outDir = join(dir.path, 'out2');
    const { code } = await runWorker({
      parameters: { adapter: 'none', compress: false },
      samples: [{ id: 1, name: 'm', read1: r1, metadata: {} }],
      outDir,
      cpus: 1,
      maxReads: 100,
    });
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(outDir, 'm.trim.json'), 'utf8')) as TrimReport;
    expect(report.reads.input).toBe(100);
    expect(report.truncated).toBe(true);
    expect(readFileSync(join(outDir, 'm_R1.trimmed.fastq'), 'utf8').split('\n').length).toBe(
      4 * report.reads.written + 1,
    );
  });

  it('fails a malformed sample with an ERROR log, and a bad parameter before any work', async () => {
    const bad = join(dir.path, 'bad.fq');
    writeFileSync(bad, '@r1\nACGTACGT\n+\nIIII\n');
    const failed = await runWorker({
      parameters: {},
      samples: [{ id: 1, name: 'bad', read1: bad, metadata: {} }],
      outDir: join(dir.path, 'out3'),
      cpus: 1,
    });
    expect(failed.code).toBe(1);
    expect(failed.messages).toContainEqual({
      type: 'log',
      process: 'trim:bad',
      level: 'ERROR',
      message: 'bad.fq: malformed FASTQ at line 4: quality length 4 differs from sequence length 8',
    });
    expect(failed.messages).toContainEqual({ type: 'process', process: 'trim:bad', status: 'failed', exit_code: 1 });
    const badParam = await runWorker({
      parameters: { quality_cutoff: 'high' },
      samples: [{ id: 1, name: 'x', read1: bad, metadata: {} }],
      outDir: join(dir.path, 'out4'),
      cpus: 1,
    });
    expect(badParam.code).toBe(1);
    expect(badParam.stderr).toMatch(/quality_cutoff must be an integer/);
  });
});
