/** The QC pipeline process end to end: a real child process, a job file, protocol lines on stdout. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineJob } from '../../../src/service/engines/protocol';
import type { QcResult } from '../../../src/service/tools/qc/qc-result';
import { esc } from '../../../src/service/tools/qc/svg-charts';
import { runWorkerJob, runWorkerOnFile } from '../../helpers/engine-worker';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-worker-');
afterAll(() => dir.remove());

const WORKER = new URL('../../../src/service/tools/qc/', import.meta.url).href;

const runWorker = (job: EngineJob) => runWorkerJob(WORKER, './qc-worker', dir.path, job);

describe('qc-worker', () => {
  it('runs one process per sample with throttled progress, logs and outputs', async () => {
    const r1 = join(dir.path, 'a_R1.fq');
    const r2 = join(dir.path, 'a_R2.fq.gz');
    const single = join(dir.path, 'b.fq');
    writeFileSync(r1, fastqText({ reads: 800, length: 100, seed: 1 }));
    writeFileSync(r2, (await import('node:zlib')).gzipSync(fastqText({ reads: 800, length: 100, seed: 2 })));
    writeFileSync(single, fastqText({ reads: 300, length: 75, seed: 3 }));
    const outDir = join(dir.path, 'out1');
    const { code, messages, stderr } = await runWorker({
      parameters: {},
      samples: [
        { id: 7, name: 'A 1', read1: r1, read2: r2, metadata: {} },
        { id: 8, name: 'B', read1: single, metadata: {} },
      ],
      outDir,
      cpus: 2,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const processes = messages.filter((m) => m.type === 'process');
    expect(processes).toEqual([
      { type: 'process', process: 'qc:A 1', status: 'running' },
      { type: 'process', process: 'qc:A 1', status: 'completed', exit_code: 0 },
      { type: 'process', process: 'qc:B', status: 'running' },
      { type: 'process', process: 'qc:B', status: 'completed', exit_code: 0 },
    ]);
    const progressA = messages
      .filter((m) => m.type === 'progress' && m.process === 'qc:A 1')
      .map((m) => (m as { progress: number }).progress);
    expect(progressA.at(-1)).toBe(100);
    expect(progressA).toEqual([...progressA].sort((a, b) => a - b));
    expect(new Set(progressA).size).toBe(progressA.length);
    const outputs = messages.filter((m) => m.type === 'output');
    expect(outputs).toEqual([
      { type: 'output', path: 'A_1_R1.qc.json', data_type: 'qc_json', sample_id: 7 },
      { type: 'output', path: 'A_1_R1.qc.html', data_type: 'html', sample_id: 7 },
      { type: 'output', path: 'A_1_R2.qc.json', data_type: 'qc_json', sample_id: 7 },
      { type: 'output', path: 'A_1_R2.qc.html', data_type: 'html', sample_id: 7 },
      { type: 'output', path: 'A_1.fastp.json', data_type: 'fastp_json', sample_id: 7 },
      { type: 'output', path: 'B_R1.qc.json', data_type: 'qc_json', sample_id: 8 },
      { type: 'output', path: 'B_R1.qc.html', data_type: 'html', sample_id: 8 },
      { type: 'output', path: 'B.fastp.json', data_type: 'fastp_json', sample_id: 8 },
    ]);
    for (const o of outputs) expect(existsSync(join(outDir, (o as { path: string }).path))).toBe(true);
    const r2Result = JSON.parse(readFileSync(join(outDir, 'A_1_R2.qc.json'), 'utf8')) as QcResult;
    expect(r2Result.summary.total_reads).toBe(800);
    expect(r2Result.compressed).toBe(true);
    expect(messages.some((m) => m.type === 'log' && m.level === 'INFO' && /800 reads/.test(m.message))).toBe(true);
    // Paired: one fastp-layout JSON for the sample, counting both reads as fastp does.
    const fastp = JSON.parse(readFileSync(join(outDir, 'A_1.fastp.json'), 'utf8')) as {
      command: string;
      summary: { before_filtering: { total_reads: number } };
      read2_before_filtering?: { total_reads: number };
    };
    expect(fastp.command).toBe('laneway-qc -i A_1 -I A_1_R2');
    expect(fastp.summary.before_filtering.total_reads).toBe(1600);
    expect(fastp.read2_before_filtering?.total_reads).toBe(800);
  });

  it('titles each report with the sample and the uploaded file name, not the stored name', async () => {
    const stored = join(dir.path, 'a3f9c0d2e1b4');
    writeFileSync(stored, fastqText({ reads: 200, length: 80, seed: 9 }));
    const outDir = join(dir.path, 'out-names');
    const { code } = await runWorker({
      parameters: {},
      samples: [{ id: 3, name: 'Liver 2', read1: stored, read1_name: 'liver2_L001_R1.fastq.gz', metadata: {} }],
      outDir,
      cpus: 1,
    });
    expect(code).toBe(0);
    const html = readFileSync(join(outDir, 'Liver_2_R1.qc.html'), 'utf8');
    expect(html).toContain('<title>QC: Liver 2: liver2_L001_R1.fastq.gz</title>');
    expect(html).not.toContain('a3f9c0d2e1b4');
    const result = JSON.parse(readFileSync(join(outDir, 'Liver_2_R1.qc.json'), 'utf8')) as QcResult;
    expect(result).toMatchObject({ file: 'liver2_L001_R1.fastq.gz', sample: 'Liver 2' });
    // One badge per flagged module in the report, as in the JSON.
    expect(result.flags.map((f) => f.module)).toHaveLength(9);
    for (const f of result.flags)
      expect(html).toContain(
        `<span class="flag flag-${f.status}" title="${esc(f.detail)}">${f.status.toUpperCase()}</span>`,
      );
  });

  it('honours maxReads (test mode)', async () => {
    const path = join(dir.path, 'many.fq');
    writeFileSync(path, fastqText({ reads: 2000, length: 50, seed: 4 }));
    const outDir = join(dir.path, 'out2');
    const { code } = await runWorker({
      parameters: {},
      samples: [{ id: 1, name: 'm', read1: path, metadata: {} }],
      outDir,
      cpus: 1,
      maxReads: 250,
    });
    expect(code).toBe(0);
    const result = JSON.parse(readFileSync(join(outDir, 'm_R1.qc.json'), 'utf8')) as QcResult;
    expect(result.summary.total_reads).toBe(250);
    expect(result.truncated).toBe(true);
  });

  it('fails a malformed sample with an ERROR log naming the line, and still runs the others', async () => {
    const bad = join(dir.path, 'bad.fq');
    const good = join(dir.path, 'good.fq');
    const lines = fastqText({ reads: 10, length: 30, seed: 5 }).split('\n');
    lines[23] = lines[23]!.slice(0, 5);
    writeFileSync(bad, lines.join('\n'));
    writeFileSync(good, fastqText({ reads: 10, length: 30, seed: 6 }));
    const { code, messages } = await runWorker({
      parameters: {},
      samples: [
        { id: 1, name: 'bad', read1: bad, metadata: {} },
        { id: 2, name: 'good', read1: good, metadata: {} },
      ],
      outDir: join(dir.path, 'out3'),
      cpus: 1,
    });
    expect(code).toBe(1);
    const error = messages.find((m) => m.type === 'log' && m.level === 'ERROR');
    expect(error).toMatchObject({
      process: 'qc:bad',
      message: expect.stringMatching(/bad\.fq: malformed FASTQ at line 24/),
    });
    expect(messages).toContainEqual({ type: 'process', process: 'qc:bad', status: 'failed', exit_code: 1 });
    expect(messages).toContainEqual({ type: 'process', process: 'qc:good', status: 'completed', exit_code: 0 });
  });

  it('exits non-zero with a message on stderr for a broken job file', async () => {
    const jobFile = join(dir.path, 'broken.json');
    writeFileSync(jobFile, '{"samples": 3}');
    const { code, stderr } = await runWorkerOnFile(WORKER, './qc-worker', jobFile);
    expect(code).toBe(1);
    expect(stderr).toMatch(/not an engine job/);
  });
});
