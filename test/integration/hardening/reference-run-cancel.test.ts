/**
 * Issue 24 item 6, over HTTP: "a cancel answered after 40 s" while a run's reference index was
 * being built, and the build went on after it. A run of Read Alignment (the shipped Snakemake
 * pipeline) on a FASTA that no run has indexed yet is cancelled while minimap2 is indexing it:
 * the cancel answers at once, the run ends `cancelled`, no build is logged as done, and no
 * process of the build is left. reference-time-limit.test.ts covers the run's time limit,
 * reference-service-killed.test.ts a SIGKILL of the service, and reference-index.test.ts the
 * build's own hygiene and bounds.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, type Kit } from '../pipelines/pipeline-kit';
import { fasta, processes } from './reference-build-helpers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

describe("a run's reference build ends with the run's cancel (issue 24 item 6)", () => {
  let kit: Kit;
  let align: number;

  beforeAll(async () => {
    kit = await startKit();
    const pipelines = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    align = pipelines.find((p) => p.name === 'Read Alignment')!.versions.find((v) => v.version === '1.2.0')!.id;
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('cancelled while minimap2 indexes: answered at once, ended cancelled, nothing of the build left', async () => {
    const reference = await kit.upload(kit.adminToken, 'genome.fa', fasta(4, 6_000_000, 11));
    const sample = await kit.createSample(
      kit.adminToken,
      'P1',
      await kit.upload(kit.adminToken, 'p1.fastq', fastqText({ reads: 50, length: 80, seed: 5 })),
    );
    const run = await kit.run(kit.adminToken, align, { samples: [sample], parameters: { reference } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const id = run.body.id as number;
    // Wait for the index build's minimap2 (the run's own engine has not started yet).
    await vi.waitFor(() => expect(processes('minimap2', kit.service.dataDir).length).toBeGreaterThan(0), {
      timeout: 120_000,
      interval: 20,
    });
    const cancel = await kit.api(`/api/executions/${id}/cancel`, kit.adminToken, { method: 'POST' });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const done = await kit.waitFor(kit.adminToken, id, ['cancelled', 'failed', 'completed'], 30_000);
    expect(done.status).toBe('cancelled');
    const logs = (await kit.api<{ items: Array<{ message: string }> }>(`/api/executions/${id}/logs`, kit.adminToken))
      .body.items;
    expect(logs.map((l) => l.message).filter((m) => /^Reference genome\.fa: built/.test(m))).toEqual([]);
    await vi.waitFor(() => expect(processes('minimap2', kit.service.dataDir)).toEqual([]), { timeout: 10_000 });
    await vi.waitFor(() => expect(processes('samtools', kit.service.dataDir)).toEqual([]), { timeout: 10_000 });
  });
});
