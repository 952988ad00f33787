import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';
import type { QcSummaryResponse } from '../../../src/shared/service-api/reports';
import { checkSequence, collectUpdates, startKit, wsClient, type Kit, type Update } from './pipeline-kit';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; version: string; can_run: boolean }> };
type Output = { id: number; filename: string; size: number; data_type: string; path: string; sample_id: number | null };

const ADAPTER = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA';

describe('built-in pipelines end to end: quality control, trimming, demultiplexing, chaining', () => {
  let kit: Kit;
  const v: Record<string, number> = {};
  let sampleA: number;
  let sampleB: number;
  const scratch = tempDir('laneway-builtin-');

  const download = async (id: number) =>
    (
      await kit.service.api(`/api/data/${id}/download`, { headers: { authorization: `Bearer ${kit.adminToken}` } })
    ).arrayBuffer();

  const runGraphQL = async (
    versionId: number,
    input: Record<string, unknown>,
  ): Promise<{ id: number; updates: Update[] }> => {
    const res = await kit.api<{ data: { runPipeline: { id: string; status: string } } }>(
      '/api/graphql',
      kit.adminToken,
      {
        body: {
          query: 'mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id status pipeline { name } } }',
          variables: { input: { pipelineVersionId: String(versionId), ...input } },
        },
      },
    );
    const id = Number(res.body.data.runPipeline.id);
    const client = wsClient(kit, kit.adminToken);
    const updates = await collectUpdates(client, id).done;
    await client.dispose();
    return { id, updates };
  };

  const expectGoodStream = (updates: Update[], processName: RegExp) => {
    expect(checkSequence(updates)).toEqual([]);
    expect(['queued', 'running']).toContain(updates[0]!.status);
    expect(updates.at(-1)).toMatchObject({ kind: 'STATUS', status: 'completed', progress: 100 });
    const all = [
      ...updates[0]!.processExecutions,
      ...updates.filter((u) => u.kind === 'PROCESS').flatMap((u) => u.processExecutions),
    ];
    const last = new Map(all.map((p) => [p.process, p]));
    expect([...last.keys()].some((n) => processName.test(n))).toBe(true);
    for (const p of last.values()) expect(p).toMatchObject({ status: 'completed', progress: 100 });
    expect(updates.some((u) => u.kind === 'LOG' || u.logs.length > 0)).toBe(true);
  };

  beforeAll(async () => {
    kit = await startKit();
    for (const p of (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body)
      v[p.name] = p.versions.at(-1)!.id;
    const r1 = fastqText({
      reads: 400,
      length: [60, 100],
      seed: 11,
      adapter: { sequence: ADAPTER, rate: 0.3 },
      lowQualityTails: true,
      name: 'a',
    });
    const r2 = fastqText({
      reads: 400,
      length: [60, 100],
      seed: 12,
      adapter: { sequence: ADAPTER, rate: 0.3 },
      name: 'a',
    });
    sampleA = await kit.createSample(
      kit.adminToken,
      'sampleA',
      await kit.upload(kit.adminToken, 'A_R1.fastq', r1),
      await kit.upload(kit.adminToken, 'A_R2.fastq', r2),
    );
    sampleB = await kit.createSample(
      kit.adminToken,
      'sampleB',
      await kit.upload(kit.adminToken, 'B_R1.fastq', fastqText({ reads: 250, seed: 13, name: 'b' })),
    );
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it('quality control through REST: JSON and HTML per read file, fastp JSON per sample, MultiQC as data', async () => {
    expect(Object.keys(v).length).toBe(5);
    const run = await kit.run(kit.adminToken, v['FASTQ Quality Control']!, { samples: [sampleA, sampleB] });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status).toBe('completed');
    expect(
      (done.process_executions as Array<{ name: string; status: string; exit_code: number | null }>).map((p) => [
        p.name,
        p.status,
      ]),
    ).toEqual([
      ['qc:sampleA', 'completed'],
      ['qc:sampleB', 'completed'],
      // The report is a process of its own: MultiQC takes seconds, and the run says what it does.
      ['MultiQC report', 'completed'],
    ]);
    const outputs = done.outputs as Output[];
    expect(outputs.map((o) => [o.filename, o.data_type, o.sample_id])).toEqual([
      ['sampleA_R1.qc.json', 'qc_json', sampleA],
      ['sampleA_R1.qc.html', 'html', sampleA],
      ['sampleA_R2.qc.json', 'qc_json', sampleA],
      ['sampleA_R2.qc.html', 'html', sampleA],
      ['sampleA.fastp.json', 'fastp_json', sampleA],
      ['sampleB_R1.qc.json', 'qc_json', sampleB],
      ['sampleB_R1.qc.html', 'html', sampleB],
      ['sampleB.fastp.json', 'fastp_json', sampleB],
      ['multiqc_report.html', 'multiqc', null],
    ]);
    const byName = new Map(outputs.map((o) => [o.filename, o]));
    // The samples at a glance, through the service's response check (a field the schema does
    // not name, such as a flag's per-file detail, would answer 500).
    const glance = await kit.api<QcSummaryResponse>(`/api/executions/${run.body.id as number}/qc`, kit.adminToken);
    expect(glance.status).toBe(200);
    expect(glance.body.samples.map((r) => [r.sample, r.files])).toEqual([
      ['sampleA', 2],
      ['sampleB', 1],
    ]);
    for (const row of glance.body.samples) {
      expect(row.modules.length).toBeGreaterThan(0);
      for (const m of row.modules) expect(Object.keys(m).sort()).toEqual(['module', 'status', 'title']);
      expect(row.verdict).not.toBeNull();
    }
    const json = JSON.parse(Buffer.from(await download(byName.get('sampleB_R1.qc.json')!.id)).toString()) as {
      summary: { total_reads: number };
    };
    expect(json.summary.total_reads).toBe(250);
    expect(outputs.every((o) => o.size > 0)).toBe(true);
    // The report names the sample and the uploaded file, not the stored checksum.
    const html = Buffer.from(await download(byName.get('sampleA_R2.qc.html')!.id)).toString();
    expect(html).toContain('<title>QC: sampleA: A_R2.fastq</title>');
    // The execution's own MultiQC report found both samples through its fastp module.
    const multiqc = Buffer.from(await download(byName.get('multiqc_report.html')!.id)).toString();
    expect(multiqc).toContain('fastp');
    expect(multiqc).toContain('sampleA');
    expect(multiqc).toContain('sampleB');

    // Debian's multiqc on the downloaded fastp-layout JSONs parses each sample's read count
    // as Laneway counted it (both reads of a pair, as fastp counts).
    const mq = join(scratch.path, 'multiqc-in');
    mkdirSync(mq, { recursive: true });
    for (const name of ['sampleA.fastp.json', 'sampleB.fastp.json'])
      writeFileSync(join(mq, name), Buffer.from(await download(byName.get(name)!.id)));
    execFileSync('multiqc', ['--force', '--outdir', join(mq, 'out'), mq], { stdio: 'ignore' });
    const [header, ...rows] = readFileSync(join(mq, 'out', 'multiqc_data', 'multiqc_general_stats.txt'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const col = header!.findIndex((h) => h.endsWith('filtering_result_passed_filter_reads'));
    expect(col).toBeGreaterThan(0);
    const parsed = Object.fromEntries(rows.map((r) => [r[0], Number(r[col])]));
    const reads = async (name: string) =>
      (
        JSON.parse(Buffer.from(await download(byName.get(name)!.id)).toString()) as {
          summary: { total_reads: number };
        }
      ).summary.total_reads;
    expect(parsed).toEqual({
      sampleA: (await reads('sampleA_R1.qc.json')) + (await reads('sampleA_R2.qc.json')),
      sampleB: await reads('sampleB_R1.qc.json'),
    });
    expect(parsed.sampleB).toBe(250);
    const raw = JSON.parse(readFileSync(join(mq, 'out', 'multiqc_data', 'multiqc_data.json'), 'utf8')) as {
      report_saved_raw_data: {
        multiqc_fastp: Record<string, { summary: { before_filtering: { total_reads: number } } }>;
      };
    };
    expect(raw.report_saved_raw_data.multiqc_fastp.sampleB!.summary.before_filtering.total_reads).toBe(250);
  });

  it('quality control through GraphQL with a subscriber checking the event sequence', async () => {
    const { id, updates } = await runGraphQL(v['FASTQ Quality Control']!, {
      samples: [String(sampleB)],
      name: 'qc via graphql',
    });
    expectGoodStream(updates, /^qc:sampleB$/);
    const detail = await kit.api<{ status: string; name: string }>(`/api/executions/${id}`, kit.adminToken);
    expect(detail.body).toMatchObject({ status: 'completed', name: 'qc via graphql' });
  });

  let trimId = 0;
  it('trimming through REST: trimmed FASTQ data records per read, R1 before R2', async () => {
    const run = await kit.run(kit.adminToken, v['Adapter Trimming']!, {
      samples: [sampleA],
      parameters: { adapter: ADAPTER, min_length: 30 },
    });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status).toBe('completed');
    trimId = done.id as number;
    const outputs = done.outputs as Output[];
    const fastq = outputs.filter((o) => o.data_type === 'fastq');
    expect(fastq.map((o) => o.filename)).toEqual(['sampleA_R1.trimmed.fastq.gz', 'sampleA_R2.trimmed.fastq.gz']);
    expect(fastq.every((o) => o.sample_id === sampleA && o.size > 0)).toBe(true);
  });

  it('trimming through GraphQL with a subscriber checking the event sequence', async () => {
    const { updates } = await runGraphQL(v['Adapter Trimming']!, {
      samples: [String(sampleB)],
      parameters: { compress: false },
    });
    expectGoodStream(updates, /^trim:sampleB$/);
  });

  it('chains quality control on the trimmed reads of a completed trimming run', async () => {
    const run = await kit.run(kit.adminToken, v['FASTQ Quality Control']!, { upstream_execution: trimId });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ upstream_execution: trimId, samples: [{ id: sampleA, name: 'sampleA' }] });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status).toBe('completed');
    const json = (done.outputs as Output[]).find((o) => o.filename === 'sampleA_R1.qc.json')!;
    const result = JSON.parse(Buffer.from(await download(json.id)).toString()) as {
      summary: { total_reads: number; total_bases: number };
    };
    // Trimming dropped short reads and cut adapters: fewer reads and bases than the 400 uploaded.
    expect(result.summary.total_reads).toBeLessThan(400);
    expect(result.summary.total_reads).toBeGreaterThan(0);
    const trimmed = (
      await kit.api<{ outputs: Output[] }>(`/api/executions/${trimId}`, kit.adminToken)
    ).body.outputs.find((o) => o.filename === 'sampleA_R1.trimmed.fastq.gz')!;
    const report = (
      await kit.api<{ outputs: Output[] }>(`/api/executions/${trimId}`, kit.adminToken)
    ).body.outputs.find((o) => o.data_type === 'trim_report')!;
    const trimReport = JSON.parse(Buffer.from(await download(report.id)).toString()) as {
      reads: Record<string, number>;
    };
    expect(JSON.stringify(trimReport.reads)).toContain(String(result.summary.total_reads));
    expect(trimmed.size).toBeGreaterThan(0);
  });

  it('demultiplexes a multiplexed data record, through REST and through GraphQL', async () => {
    const lane = generateLane({
      dir: scratch.path,
      reads: 600,
      samples: 3,
      kind: 'inline',
      layout: 'NNNXXXXXXNN',
      readLength: 60,
      seed: 5,
    });
    const input = await kit.upload(kit.adminToken, 'lane_R1.fastq', readFileSync(lane.read1));
    const barcodes = lane.barcodes.map((b) => `${b.name}=${b.barcode}`);
    // A reference where the reads belong is refused before it runs, by its data type.
    const fasta = await kit.upload(kit.adminToken, 'ref.fa', '>chr1\nACGTACGTACGT\n');
    const wrong = await kit.run(kit.adminToken, v.Demultiplexing!, { parameters: { input: fasta, barcodes } });
    expect(wrong).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETERS', fields: { input: 'must be a fastq data record (this one is fasta)' } },
    });
    // A sample chosen beside the lane once replaced it silently (its reads were demultiplexed).
    const withSample = await kit.run(kit.adminToken, v.Demultiplexing!, {
      samples: [sampleA],
      parameters: { input, barcodes, layout: 'NNNXXXXXXNN' },
    });
    expect(withSample.status).toBe(400);
    expect(withSample.body).toMatchObject({
      code: 'INVALID_SAMPLES',
      invalid_samples: [{ sample_id: null, reason: expect.stringMatching(/takes no samples/) }],
    });
    const run = await kit.run(kit.adminToken, v.Demultiplexing!, {
      parameters: { input, barcodes, layout: 'NNNXXXXXXNN', mismatches: 1 },
    });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    expect((done.process_executions as Array<{ name: string; status: string }>)[0]).toMatchObject({
      name: 'demultiplex',
      status: 'completed',
    });
    const fastq = (done.outputs as Output[]).filter((o) => o.data_type === 'fastq');
    for (const b of lane.barcodes) expect(fastq.some((o) => o.filename.includes(b.name))).toBe(true);
    expect((done.outputs as Output[]).some((o) => o.data_type === 'json')).toBe(true);

    const { updates } = await runGraphQL(v.Demultiplexing!, { parameters: { input, barcodes, layout: 'NNNXXXXXXNN' } });
    expectGoodStream(updates, /^demultiplex$/);
  });
});
