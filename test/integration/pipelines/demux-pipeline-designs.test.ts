/**
 * The Demultiplexing pipeline on the barcode designs, each compared read by read with the
 * generator's truth: the annotation sheet kept as a data record through POST /api/data/sheets
 * (stored under its hash, without an extension: CSV and an openpyxl workbook), mixed-length inline barcodes, combinatorial 5'+3'
 * pairs, dual indexes from I1/I2 index-read records, and 3' barcodes typed as parameters.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  designSheetCsv,
  generateDesignLane,
  type DesignLane,
  type DesignLaneSpec,
} from '../../helpers/design-lane-generator';
import { compareWithTruth } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Output = { id: number; filename: string; data_type: string };

describe('Demultiplexing pipeline: barcode designs to the truth', () => {
  let kit: Kit;
  let version: number;
  const scratch = tempDir('laneway-demux-pipe-');
  let n = 0;

  beforeAll(async () => {
    kit = await startKit();
    version = await kit.latestVersion('Demultiplexing');
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  const lane = (spec: Omit<DesignLaneSpec, 'dir'>): DesignLane => {
    const dir = join(scratch.path, `lane${++n}`);
    mkdirSync(dir);
    return generateDesignLane({ ...spec, dir });
  };

  /** Runs the pipeline and checks every read of read 1 against the truth; returns the report. */
  const runToTruth = async (l: DesignLane, parameters: Record<string, unknown>) => {
    const input = await kit.upload(kit.adminToken, 'lane_R1.fastq', readFileSync(l.read1));
    const run = await kit.run(kit.adminToken, version, { parameters: { input, ...parameters } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    const outDir = join(scratch.path, `out${n}`);
    mkdirSync(outDir);
    const outputs = done.outputs as Output[];
    const files: Array<{ sample: string; path: string }> = [];
    let report: Record<string, unknown> = {};
    for (const o of outputs) {
      const res = await kit.service.api(`/api/data/${o.id}/download`, {
        headers: { authorization: `Bearer ${kit.adminToken}` },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (o.data_type === 'json') report = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      if (o.data_type !== 'fastq') continue;
      const path = join(outDir, o.filename);
      writeFileSync(path, bytes);
      files.push({ sample: o.filename.replace(/(_R[12])?\.fastq(\.gz)?$/, ''), path });
    }
    const cmp = compareWithTruth(l.truth, files);
    expect(cmp.examples).toEqual([]);
    expect(cmp.disagreements).toBe(0);
    return { report, logs: JSON.stringify(done.logs) };
  };

  it('mixed-length inline barcodes from a CSV sheet kept as a data record (stored without its extension)', async () => {
    const l = lane({ kind: 'mixed5', reads: 3000, samples: 9, seed: 31 });
    const annotation = await kit.keepSheet(kit.adminToken, 'sheet.csv', designSheetCsv(l));
    const { report } = await runToTruth(l, { annotation });
    expect(report.layout).toBe('NNNXXXXXXXXNN | NNNXXXXXXXNN | NNNXXXXXXNN');
  });

  it("combinatorial 5'+3' pairs from an openpyxl workbook kept as a data record", async () => {
    const l = lane({ kind: 'combinatorial', reads: 3000, samples: 6, seed: 32, hoppingFraction: 0.02 });
    const xlsx = join(scratch.path, 'pairs.xlsx');
    const script = [
      'import json, sys, openpyxl',
      'wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Lane"',
      'ws.append(["Sample Name", "Barcode", "Organism", "Category"])',
      'for s in json.loads(sys.argv[2]): ws.append([s["name"], s["cell"], "Homo sapiens", "RNA"])',
      'wb.save(sys.argv[1])',
    ].join('\n');
    const r = spawnSync('/usr/bin/python3', ['-c', script, xlsx, JSON.stringify(l.samples)]);
    expect(r.status, r.stderr.toString()).toBe(0);
    const annotation = await kit.keepSheet(kit.adminToken, 'pairs.xlsx', readFileSync(xlsx));
    const { report } = await runToTruth(l, { annotation });
    expect((report.hopping as { reads: number }).reads).toBeGreaterThan(0);
  });

  it('dual indexes from I1/I2 index-read records, with per-index mismatches', async () => {
    const l = lane({ kind: 'dual-index-reads', reads: 3000, samples: 6, seed: 33, hoppingFraction: 0.02 });
    const index_read1 = await kit.upload(kit.adminToken, 'lane_I1.fastq', readFileSync(l.index1!));
    const index_read2 = await kit.upload(kit.adminToken, 'lane_I2.fastq', readFileSync(l.index2!));
    const barcodes = l.samples.map((s) => `${s.name}=${s.cell}`);
    const { report } = await runToTruth(l, { barcodes, index_read1, index_read2, mismatches: 1, mismatches_index2: 1 });
    expect(report.source).toBe('index-reads');
    expect(report.segment_mismatches).toEqual([1, 1]);
    expect((report.hopping as { reads: number }).reads).toBeGreaterThan(0);
  });

  it("3' barcodes typed as parameters with the layout", async () => {
    const l = lane({ kind: 'inline3', reads: 2000, samples: 5, seed: 34 });
    const barcodes = l.samples.map((s) => `${s.name}=${s.cell.replace(/N/g, '').replace('...', '')}`);
    const { report } = await runToTruth(l, { barcodes, layout: '...XXXXXXXNNNN' });
    expect(report.segments).toEqual(["3'"]);
  });
});
