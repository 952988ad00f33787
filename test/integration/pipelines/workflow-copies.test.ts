/**
 * Reproducible versions: a version owns a copy of its workflow made at first registration, with
 * its checksum stored. Editing the shipped source afterwards does not change what the version
 * runs; a copy changed behind the service's back is refused. Real service, real Snakemake.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Version = { id: number; can_run: boolean; reason: string | null; workflow_checksum: string | null };
type Output = { id: number; filename: string };

const snakefile = (label: string) => `# Writes one file per sample saying which workflow text ran.
import os
SAMPLES = {s["key"]: s for s in config["samples"]}

rule all:
    input:
        expand(os.path.join(config["outdir"], "{sample}.label.txt"), sample=SAMPLES),

rule label:
    output:
        os.path.join(config["outdir"], "{sample}.label.txt"),
    shell:
        "echo ${label} > {output}"
`;

describe('each pipeline version runs its own immutable copy of its workflow', () => {
  const manifests = tempDir('laneway-copies-manifests-');
  const data = tempDir('laneway-copies-data-');
  const source = join(manifests.path, 'wf', 'Snakefile');
  let kit: Kit | null = null;
  const logs: string[] = [];

  const start = async () => {
    kit = await startKit(manifests.path, { dataDir: data.path, log: (m: string) => logs.push(m) });
    return kit;
  };
  const stop = async () => {
    await kit!.service.stop();
    kit = null;
  };
  const version = async (k: Kit) =>
    (await k.api<Array<{ name: string; versions: Version[] }>>('/api/pipelines', k.adminToken)).body.find(
      (p) => p.name === 'Copy Test',
    )!.versions[0]!;
  let samples = 0;
  const runOnce = async (k: Kit, v: Version) => {
    const n = ++samples;
    const sample = await k.createSample(
      k.adminToken,
      `S${n}`,
      await k.upload(k.adminToken, `r${n}.fastq`, `@r${n}\nACGT\n+\nIIII\n`),
    );
    const run = await k.run(k.adminToken, v.id, { samples: [sample] });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await k.waitFor(k.adminToken, run.body.id as number, ['completed', 'failed'], 90_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    const out = (done.outputs as Output[])[0]!;
    const text = await (
      await k.service.api(`/api/data/${out.id}/download`, { headers: { authorization: `Bearer ${k.adminToken}` } })
    ).text();
    return { text: text.trim(), checksum: done.workflow_checksum as string };
  };

  beforeAll(() => {
    mkdirSync(join(manifests.path, 'wf'), { recursive: true });
    writeFileSync(source, snakefile('first'));
    writeFileSync(
      join(manifests.path, 'copy-test.json'),
      JSON.stringify({
        name: 'Copy Test',
        category: 'Epigenomics',
        versions: [{ version: '1.0.0', is_latest: true, engine: 'snakemake', workflow: './wf/Snakefile' }],
      }),
    );
  });
  afterAll(async () => {
    if (kit) await stop();
    delete process.env.LANEWAY_PIPELINES_DIR;
    manifests.remove();
    data.remove();
  });

  it('registers a copy with its checksum, keeps running it after the source changes, refuses a changed copy', async () => {
    let k = await start();
    const v = await version(k);
    expect(v.workflow_checksum).toMatch(/^[0-9a-f]{64}$/);
    const copy = join(data.path, 'workflows', String(v.id), 'Snakefile');
    expect(readFileSync(copy, 'utf8')).toBe(snakefile('first'));
    expect(await runOnce(k, v)).toEqual({ text: 'first', checksum: v.workflow_checksum });
    await stop();

    // The shipped source is edited: the version keeps its registered copy, and the log says so.
    writeFileSync(source, snakefile('second'));
    k = await start();
    const again = await version(k);
    expect(again).toMatchObject({ id: v.id, can_run: true, workflow_checksum: v.workflow_checksum });
    expect(
      logs.some(
        (l) => l.includes('Copy Test 1.0.0: the workflow at') && l.includes('publish the change as a new version'),
      ),
    ).toBe(true);
    expect(await runOnce(k, again)).toEqual({ text: 'first', checksum: v.workflow_checksum });
    await stop();

    // The copy itself is changed behind the service's back: the version is refused.
    writeFileSync(copy, snakefile('tampered'));
    k = await start();
    const refused = await version(k);
    expect(refused.can_run).toBe(false);
    expect(refused.reason).toMatch(/^The workflow copy of Copy Test 1\.0\.0 was changed after registration/);
    const sample = await k.createSample(
      k.adminToken,
      'T1',
      await k.upload(k.adminToken, 't1.fastq', '@r\nACGT\n+\nIIII\n'),
    );
    const run = await k.run(k.adminToken, refused.id, { samples: [sample] });
    expect(run).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT', error: expect.stringMatching(/changed after registration/) },
    });
  });
});
