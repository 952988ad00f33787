/**
 * Issue 24 item 6, over HTTP: "a cancel answered after 40 s" while a run's reference index was
 * being built, and the build went on after it. A run of Read Alignment (the shipped Snakemake
 * pipeline) on a FASTA that no run has indexed yet is cancelled while minimap2 is indexing it:
 * the cancel answers at once, the run ends `cancelled`, no build is logged as done, and no
 * process of the build is left. reference-time-limit.test.ts covers the run's time limit,
 * reference-service-killed.test.ts a SIGKILL of the service, and reference-index.test.ts the
 * build's own hygiene and bounds.
 */
import { describe, expect, it, vi } from 'vitest';
import { processes } from './reference-build-helpers';
import { alignmentSuite } from './reference-run-suite';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

describe("a run's reference build ends with the run's cancel (issue 24 item 6)", () => {
  const suite = alignmentSuite();

  it('cancelled while minimap2 indexes: answered at once, ended cancelled, nothing of the build left', async () => {
    const { kit, align } = suite;
    const { reference, sample } = await suite.inputs(11);
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
    const logs = await suite.logMessages(id);
    expect(logs.filter((m) => /^Reference genome\.fa: built/.test(m))).toEqual([]);
    await vi.waitFor(() => expect(processes('minimap2', kit.service.dataDir)).toEqual([]), { timeout: 10_000 });
    await vi.waitFor(() => expect(processes('samtools', kit.service.dataDir)).toEqual([]), { timeout: 10_000 });
  });
});
