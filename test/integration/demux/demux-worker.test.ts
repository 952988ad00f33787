import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineMessage } from '../../../src/service/engines/protocol';
import { DemuxFailedError, runDemuxWorker } from '../../../src/service/tools/demux/run-demux-worker';
import { compareWithTruth, generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

describe('demux worker (child process speaking the engine protocol)', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('demultiplexes a paired gzip lane from sheet rows and reports progress, logs and outputs', async () => {
    const laneDir = join(dir.path, 'rows');
    mkdirSync(laneDir);
    const lane = generateLane({
      dir: laneDir,
      kind: 'inline',
      reads: 2000,
      samples: 4,
      paired: true,
      gzip: true,
      seed: 11,
    });
    const outDir = join(laneDir, 'out');
    const messages: EngineMessage[] = [];
    const result = await runDemuxWorker(
      {
        parameters: { rows: lane.rows, layout: lane.layout! },
        samples: [{ id: 1, name: 'lane', read1: lane.read1, read2: lane.read2, metadata: {} }],
        outDir,
        cpus: 1,
      },
      (m) => messages.push(m),
    );
    expect(result.total_reads).toBe(2000);
    expect(result.paired).toBe(true);
    expect(messages[0]).toEqual({ type: 'process', process: 'demultiplex', status: 'running' });
    expect(messages.at(-1)).toEqual({ type: 'process', process: 'demultiplex', status: 'completed', exit_code: 0 });
    expect(messages).toContainEqual({ type: 'progress', process: 'demultiplex', progress: 100 });
    const outputs = messages.filter((m) => m.type === 'output').map((m) => (m as { path: string }).path);
    expect(outputs).toEqual([
      'S01_R1.fastq.gz',
      'S01_R2.fastq.gz',
      'S02_R1.fastq.gz',
      'S02_R2.fastq.gz',
      'S03_R1.fastq.gz',
      'S03_R2.fastq.gz',
      'S04_R1.fastq.gz',
      'S04_R2.fastq.gz',
      'Undetermined_R1.fastq.gz',
      'Undetermined_R2.fastq.gz',
      'demux-report.json',
    ]);
    for (const o of outputs) expect(existsSync(join(outDir, o))).toBe(true);
    const logs = messages.filter((m) => m.type === 'log').map((m) => (m as { message: string }).message);
    expect(logs).toContainEqual(
      expect.stringMatching(/^S01 \([ACGT]{6}\): \d+ reads, \d+ with one mismatch, \d+ with two$/),
    );
    const cmp = compareWithTruth(lane.truth, [
      ...result.samples.map((s) => ({ sample: s.name, path: join(outDir, s.files[0]!) })),
      { sample: 'Undetermined', path: join(outDir, result.undetermined_files[0]!) },
    ]);
    expect(cmp.disagreements).toBe(0);
  });

  it('reads the sheet from an xlsx file named in the job (the pipeline passes it as a file)', async () => {
    const laneDir = join(dir.path, 'xlsx');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'dual', reads: 500, samples: 3, seed: 12 });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Samples');
    ws.addRow(['Sample Name', 'Barcode', 'Organism', 'Category']);
    for (const r of lane.rows) ws.addRow([r.values['Sample Name'], r.values.Barcode, 'Homo sapiens', 'RNA']);
    const sheet = join(laneDir, 'annotation.xlsx');
    writeFileSync(sheet, Buffer.from(await wb.xlsx.writeBuffer()));
    const result = await runDemuxWorker(
      {
        parameters: {},
        files: { annotation: sheet },
        samples: [{ id: 7, name: 'lane', read1: lane.read1, metadata: {} }],
        outDir: join(laneDir, 'out'),
        cpus: 1,
      },
      () => undefined,
    );
    expect(result.source).toBe('header');
    expect(result.samples.map((s) => s.name)).toEqual(['S01', 'S02', 'S03']);
  });

  it('fails with the sheet errors (row and column) and a non-zero exit', async () => {
    const laneDir = join(dir.path, 'bad');
    mkdirSync(laneDir);
    const lane = generateLane({ dir: laneDir, kind: 'header', reads: 10, samples: 2, seed: 13 });
    const rows = [...lane.rows, { row: 4, values: { ...lane.rows[0]!.values, 'Sample Name': 'S09' } }];
    const messages: EngineMessage[] = [];
    const run = runDemuxWorker(
      {
        parameters: { rows },
        samples: [{ id: 1, name: 'lane', read1: lane.read1, metadata: {} }],
        outDir: join(laneDir, 'out'),
        cpus: 1,
      },
      (m) => messages.push(m),
    );
    await expect(run).rejects.toBeInstanceOf(DemuxFailedError);
    await expect(run).rejects.toThrow(/Row 4, Barcode: Barcode [ACGT]{8} repeats row 2/);
    expect(messages.at(-1)).toEqual({ type: 'process', process: 'demultiplex', status: 'failed', exit_code: 1 });
  });
});

describe('cancelling the demux worker', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('stops the child on abort and rejects as cancelled', async () => {
    const lane = generateLane({ dir: dir.path, kind: 'header', reads: 400_000, samples: 3, readLength: 20, seed: 14 });
    const abort = new AbortController();
    const messages: EngineMessage[] = [];
    const run = runDemuxWorker(
      {
        parameters: { rows: lane.rows },
        samples: [{ id: 1, name: 'lane', read1: lane.read1, metadata: {} }],
        outDir: join(dir.path, 'out'),
        cpus: 1,
      },
      (m) => {
        messages.push(m);
        if (m.type === 'progress') abort.abort(); // mid-run: the first progress report
      },
      { signal: abort.signal },
    );
    await expect(run).rejects.toThrow('Demultiplexing was cancelled');
    expect(messages.some((m) => m.type === 'process' && m.status === 'completed')).toBe(false);
  });
});
