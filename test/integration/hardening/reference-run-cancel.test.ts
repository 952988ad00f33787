/**
 * Issue 24 item 6, over HTTP: "a cancel answered after 40 s" while a run's reference index was
 * being built, and the build went on after it. A run of Read Alignment (the shipped Snakemake
 * pipeline) on a FASTA that no run has indexed yet is cancelled while minimap2 is indexing it:
 * the cancel answers at once, the run ends `cancelled`, no build is logged as done, and no
 * process of the build is left. The time limit aborts the same signal (execution-queue.ts);
 * reference-index.test.ts covers the build's own hygiene and bounds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

/** A FASTA of `n` sequences of `len` pseudo-random bases (generated, no file copied). */
function fasta(n: number, len: number, seed: number): Buffer {
  let x = seed;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(`>chr${i + 1}\n`);
    for (let j = 0; j < len; j += 60) {
      let line = '';
      for (let k = 0; k < 60 && j + k < len; k++) {
        x = (x * 1103515245 + 12345) >>> 0;
        line += 'ACGT'[x >>> 30];
      }
      parts.push(`${line}\n`);
    }
  }
  return Buffer.from(parts.join(''));
}

/** Pids of live processes whose command line names `tool` and `within` (the service's data folder). */
function processes(tool: string, within: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.some((a) => a.endsWith(tool)) && cmd.some((a) => a.includes(within))) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

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
