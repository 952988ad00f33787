import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onPath } from '../../../src/service/engines/tool-check';
import { prng } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';
import { checkSequence, collectUpdates, FIXTURE_MANIFESTS, startKit, wsClient, type Kit } from './pipeline-kit';
import { eventually, groupAlive, processesWith } from './proc-helpers';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = {
  id: number;
  name: string;
  versions: Array<{ id: number; version: string; can_run: boolean; reason: string | null }>;
};
type Output = { id: number; filename: string; size: number; data_type: string; path: string; sample_id: number | null };

/** A pipeline of the kit's service by its name. */
async function pipelineNamed(kit: Kit, name: string): Promise<Pipeline> {
  const found = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body.find((x) => x.name === name);
  if (!found) throw new Error(`no pipeline named ${name}`);
  return found;
}

const REPLAY = fileURLToPath(new URL('../../fixtures/nextflow-weblog/replay-nextflow.mjs', import.meta.url));
const FAILURE_STREAM = fileURLToPath(
  new URL('../../fixtures/nextflow-weblog/variant-calling-failure.ndjson', import.meta.url),
);
const REAL_NEXTFLOW = onPath('nextflow') && onPath('bcftools');

/** A random reference and reads sampled from it (with their reverse complements). */
function makeGenome(dir: string, seed: number) {
  const rnd = prng(seed);
  const ref = Array.from({ length: 5000 }, () => 'ACGT'[Math.floor(rnd() * 4)]).join('');
  writeFileSync(join(dir, 'ref.fa'), `>chr1\n${ref.match(/.{1,60}/g)!.join('\n')}\n`);
  const rc = (s: string) =>
    [...s]
      .reverse()
      .map((c) => ({ A: 'T', C: 'G', G: 'C', T: 'A' })[c as 'A'])
      .join('');
  const reads = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => {
      const at = Math.floor(rnd() * (ref.length - 100));
      const seq = i % 2 ? rc(ref.slice(at, at + 100)) : ref.slice(at, at + 100);
      return `@${tag}${i}\n${seq}\n+\n${'I'.repeat(100)}\n`;
    }).join('');
  return { reference: `>chr1\n${ref.match(/.{1,60}/g)!.join('\n')}\n`, reads };
}

describe('Snakemake adapter: read alignment for real (minimap2, samtools)', () => {
  let kit: Kit;
  let align: number;
  const scratch = tempDir('laneway-snakemake-');

  beforeAll(async () => {
    kit = await startKit();
    const p = await pipelineNamed(kit, 'Read Alignment');
    align = p.versions.find((v) => v.version === '1.1.0')!.id;
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it('aligns two samples: one process per rule and sample, sorted BAM, index and flagstat as data', async () => {
    const g = makeGenome(scratch.path, 7);
    const reference = await kit.upload(kit.adminToken, 'ref.fa', g.reference);
    const s1 = await kit.createSample(
      kit.adminToken,
      'S1',
      await kit.upload(kit.adminToken, 'S1.fastq', g.reads(200, 's1_')),
    );
    const s2 = await kit.createSample(
      kit.adminToken,
      'S2',
      await kit.upload(kit.adminToken, 'S2.fastq', g.reads(120, 's2_')),
    );
    const run = await kit.run(kit.adminToken, align, {
      samples: [s1, s2],
      parameters: { reference, preset: 'sr' },
      resources: { cpus: 1 },
    });
    expect(run.status).toBe(201);
    const client = wsClient(kit, kit.adminToken);
    const updates = await collectUpdates(client, run.body.id as number).done;
    await client.dispose();
    expect(checkSequence(updates)).toEqual([]);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 180_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    const procs = done.process_executions as Array<{
      name: string;
      status: string;
      exit_code: number | null;
      start_time: string;
      end_time: string;
    }>;
    for (const rule of ['align', 'sort', 'index', 'flagstat']) {
      for (const s of ['S1', 'S2']) {
        expect(
          procs.find((p) => p.name === `${rule} (sample=${s})`),
          `${rule} ${s}`,
        ).toMatchObject({ status: 'completed', exit_code: 0 });
      }
    }
    expect(procs.find((p) => p.name === 'all')).toMatchObject({ status: 'completed' });
    const outputs = done.outputs as Output[];
    expect(outputs.map((o) => [o.filename, o.data_type, o.sample_id]).sort()).toEqual(
      [
        ['S1.flagstat.txt', 'flagstat', s1],
        ['S1.sorted.bam', 'bam', s1],
        ['S1.sorted.bam.bai', 'bai', s1],
        ['S2.flagstat.txt', 'flagstat', s2],
        ['S2.sorted.bam', 'bam', s2],
        ['S2.sorted.bam.bai', 'bai', s2],
      ].sort(),
    );
    const flagstat = outputs.find((o) => o.filename === 'S1.flagstat.txt')!;
    const text = await (
      await kit.service.api(`/api/data/${flagstat.id}/download`, {
        headers: { authorization: `Bearer ${kit.adminToken}` },
      })
    ).text();
    expect(text).toMatch(/^200 \+ 0 in total/);
    expect(text).toMatch(/200 \+ 0 mapped \(100\.00%/);
    const bam = outputs.find((o) => o.filename === 'S2.sorted.bam')!;
    const bytes = Buffer.from(
      await (
        await kit.service.api(`/api/data/${bam.id}/download`, {
          headers: { authorization: `Bearer ${kit.adminToken}` },
        })
      ).arrayBuffer(),
    );
    writeFileSync(join(scratch.path, 'S2.bam'), bytes);
    expect(
      execFileSync('samtools', ['view', '-c', join(scratch.path, 'S2.bam')])
        .toString()
        .trim(),
    ).toBe('120');
    const logs = done.logs as Array<{ process: string; message: string }>;
    expect(logs.some((l) => l.process === 'align (sample=S1)' && l.message.includes('minimap2'))).toBe(true);
  });

  it('runs a test_mode subsample and cancels a Snakemake run with its whole tree', async () => {
    const g = makeGenome(scratch.path, 8);
    const reference = await kit.upload(kit.adminToken, 'ref2.fa', g.reference);
    const s3 = await kit.createSample(
      kit.adminToken,
      'S3',
      await kit.upload(kit.adminToken, 'S3.fastq', g.reads(300, 's3_')),
    );
    const small = await kit.run(kit.adminToken, align, {
      samples: [s3],
      parameters: { reference },
      test_mode: true,
      resources: { cpus: 1 },
    });
    const done = await kit.waitFor(kit.adminToken, small.body.id as number, ['completed', 'failed'], 180_000);
    expect(done.status).toBe('completed');
    // The workflow reads only the first 10,000 records of each input in test mode.
    expect((done.logs as Array<{ message: string }>).some((l) => l.message.includes('head -n 40000'))).toBe(true);
    const run = await kit.run(kit.adminToken, align, {
      samples: [s3],
      parameters: { reference },
      resources: { cpus: 1 },
    });
    const id = run.body.id as number;
    expect(await eventually(() => processesWith(`executions/${id}/work/laneway-config.json`).length > 0, 20_000)).toBe(
      true,
    );
    const pgrp = processesWith(`executions/${id}/work/laneway-config.json`)[0]!.pgrp;
    const cancelled = await kit.api<{ status: string }>(`/api/executions/${id}/cancel`, kit.adminToken, {
      method: 'POST',
    });
    expect(cancelled.body.status).toBe('cancelled');
    expect(groupAlive(pgrp)).toEqual([]);
  });
});

describe('Snakemake adapter: a failing rule', () => {
  let kit: Kit;
  afterAll(async () => {
    await kit.stop();
  });

  it("fails with the failing rule named, its tool's last message as the reason, and its messages kept as ERROR lines", async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const p = await pipelineNamed(kit, 'Test Snakemake Failing');
    const s4 = await kit.createSample(
      kit.adminToken,
      'S4',
      await kit.upload(kit.adminToken, 'S4.fastq', '@r\nACGT\n+\nIIII\n'),
    );
    const run = await kit.run(kit.adminToken, p.versions[0]!.id, { samples: [s4] });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status).toBe('failed');
    // The rule named, and why in its tool's own words (the last line of its log).
    expect(done.error).toBe(
      'Snakemake failed (exit code 1): Error in rule count (count (sample=S4)): counting went wrong: disk on fire',
    );
    const procs = done.process_executions as Array<{ name: string; status: string; exit_code: number | null }>;
    expect(procs.find((x) => x.name === 'count (sample=S4)')).toMatchObject({ status: 'failed', exit_code: 1 });
    const logs = done.logs as Array<{ process: string; level: string; message: string }>;
    expect(logs).toContainEqual(
      expect.objectContaining({
        process: 'count (sample=S4)',
        level: 'ERROR',
        message: 'counting went wrong: disk on fire',
      }),
    );
  });
});

describe("Snakemake adapter: a workflow's own rule named multiqc, with the MultiQC report asked for", () => {
  let kit: Kit;
  afterAll(async () => {
    await kit.stop();
  });

  it('keeps the rule and the report step apart: two process rows, each with its own log lines', async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const p = await pipelineNamed(kit, 'Test Own MultiQC Rule');
    const samples = [];
    for (const name of ['M1', 'M2'])
      samples.push(
        await kit.createSample(
          kit.adminToken,
          name,
          await kit.upload(kit.adminToken, `${name}.fastq`, `@${name}\nACGT\n+\nIIII\n`),
        ),
      );
    const run = await kit.run(kit.adminToken, p.versions[0]!.id, { samples });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status).toBe('completed');
    const procs = (done.process_executions as Array<{ name: string; status: string }>).map((x) => [x.name, x.status]);
    expect(procs).toEqual(
      expect.arrayContaining([
        ['count (sample=M1)', 'completed'],
        ['count (sample=M2)', 'completed'],
        ['multiqc', 'completed'],
        ['all', 'completed'],
        ['MultiQC report', 'completed'],
      ]),
    );
    expect(procs).toHaveLength(5);
    const logs = done.logs as Array<{ process: string; message: string }>;
    // The report step's lines are under its own name, none under the workflow's rule.
    expect(logs.filter((l) => l.process === 'MultiQC report').map((l) => l.message)).toContain(
      'MultiQC: building the report over the results of the run',
    );
    expect(logs.filter((l) => l.process === 'multiqc' && /^MultiQC/.test(l.message))).toEqual([]);
  });
});

describe('Nextflow adapter: a hand-made -with-weblog stream through the service (not a real Nextflow run)', () => {
  let kit: Kit;
  let version: number;
  const bin = tempDir('laneway-nextflow-bin-');
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    // The replay player stands in for `nextflow` on PATH (Nextflow is not installable here).
    mkdirSync(bin.path, { recursive: true });
    symlinkSync(REPLAY, join(bin.path, 'nextflow'));
    chmodSync(REPLAY, 0o755);
    process.env.PATH = `${bin.path}${delimiter}${savedPath}`;
    kit = await startKit(FIXTURE_MANIFESTS);
    const p = await pipelineNamed(kit, 'Test Nextflow');
    version = p.versions[0]!.id;
    expect(p.versions[0]!.can_run).toBe(true);
  });
  afterAll(async () => {
    await kit.stop();
    process.env.PATH = savedPath;
    delete process.env.LANEWAY_WEBLOG_FIXTURE;
    bin.remove();
  });

  it('maps each task to a process execution and registers the published outputs', async () => {
    const s = await kit.createSample(
      kit.adminToken,
      'S1',
      await kit.upload(kit.adminToken, 'nf1.fastq', '@r1\nACGTACGT\n+\nIIIIIIII\n'),
    );
    const s2 = await kit.createSample(
      kit.adminToken,
      'S2',
      await kit.upload(kit.adminToken, 'nf2.fastq', '@r2\nTTGCATGC\n+\nIIIIIIII\n'),
    );
    const run = await kit.run(kit.adminToken, version, { samples: [s, s2], resources: { queue: 'long' } });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 60_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    const procs = done.process_executions as Array<{
      name: string;
      status: string;
      exit_code: number;
      resources: { cpu_percent: number; memory_gb: number };
    }>;
    expect(procs.map((p) => [p.name, p.status, p.exit_code])).toEqual([
      ['ALIGN (S1)', 'completed', 0],
      ['ALIGN (S2)', 'completed', 0],
      ['CALL (S1)', 'completed', 0],
      ['CALL (S2)', 'completed', 0],
    ]);
    expect(procs[0]!.resources).toEqual({ cpu_percent: 187.3, memory_gb: 0.291 });
    expect((done.outputs as Output[]).map((o) => [o.filename, o.data_type, o.sample_id])).toEqual([
      ['S1.vcf.gz', 'vcf', s],
      ['S2.vcf.gz', 'vcf', s2],
    ]);
  });

  it('fails with the workflow error when the stream reports a failed task', async () => {
    process.env.LANEWAY_WEBLOG_FIXTURE = FAILURE_STREAM;
    const s = await kit.createSample(
      kit.adminToken,
      'S1',
      await kit.upload(kit.adminToken, 'nf3.fastq', '@r3\nGGGCCCAA\n+\nIIIIIIII\n'),
    );
    const run = await kit.run(kit.adminToken, version, { samples: [s] });
    const client = wsClient(kit, kit.adminToken);
    const updates = await collectUpdates(client, run.body.id as number).done;
    await client.dispose();
    expect(checkSequence(updates)).toEqual([]);
    expect(updates.at(-1)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/CALL \(S1\)` terminated with an error exit status \(1\)/),
    });
    const done = await kit.api<{ process_executions: Array<{ name: string; status: string; exit_code: number }> }>(
      `/api/executions/${run.body.id}`,
      kit.adminToken,
    );
    expect(done.body.process_executions.find((p) => p.name === 'CALL (S1)')).toMatchObject({
      status: 'failed',
      exit_code: 1,
    });
    delete process.env.LANEWAY_WEBLOG_FIXTURE;
  });

  it('refuses weblog posts with a wrong secret or for executions not running', async () => {
    const res = await kit.service.api('/api/executions/1/weblog/wrong-secret', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"event":"started"}',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe.skipIf(!REAL_NEXTFLOW)(
  'Nextflow for real (skipped here: nextflow and bcftools are not installed on this machine)',
  () => {
    let kit: Kit;
    const scratch = tempDir('laneway-nextflow-real-');
    afterAll(async () => {
      await kit?.stop();
      scratch.remove();
    });

    it('runs the shipped variant-calling workflow: a process per task, one VCF per sample', async () => {
      kit = await startKit();
      const p = await pipelineNamed(kit, 'Variant Calling');
      expect(p.versions[0]!.can_run).toBe(true);
      const g = makeGenome(scratch.path, 21);
      const reference = await kit.upload(kit.adminToken, 'ref.fa', g.reference);
      const s1 = await kit.createSample(
        kit.adminToken,
        'S1',
        await kit.upload(kit.adminToken, 'vc1.fastq', g.reads(300, 'v1_')),
      );
      const run = await kit.run(kit.adminToken, p.versions[0]!.id, { samples: [s1], parameters: { reference } });
      const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 600_000);
      expect(done.status, JSON.stringify(done.logs)).toBe('completed');
      const names = (done.process_executions as Array<{ name: string; status: string }>).map((x) => [x.name, x.status]);
      expect(names).toEqual([
        ['ALIGN (S1)', 'completed'],
        ['CALL (S1)', 'completed'],
      ]);
      expect((done.outputs as Output[]).map((o) => [o.filename, o.data_type, o.sample_id])).toEqual([
        ['S1.vcf.gz', 'vcf', s1],
      ]);
    });
  },
);
