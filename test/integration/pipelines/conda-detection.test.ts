/**
 * Conda environments per workflow version: conda is not installed on this machine (Debian
 * packages neither conda nor mamba), so what is tested is the detection and its consequence.
 * A version with `"conda": true` runs here with the tools on PATH and its log says why; the
 * arguments a machine with conda would get are checked as arguments, not run.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { EngineJobInput } from '../../../src/service/engines/engine';
import { condaArgs, detectCondaFrontend } from '../../../src/service/engines/snakemake/conda-frontend';
import { snakemakeArgs } from '../../../src/service/engines/snakemake/snakemake-engine';
import { onPath } from '../../../src/service/engines/tool-check';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

const CONDA_MANIFESTS = fileURLToPath(new URL('./fixtures/conda-manifests', import.meta.url));

describe('conda detection', () => {
  it('finds mamba before conda, and neither on this machine', () => {
    expect(detectCondaFrontend('')).toBeNull();
    const expected = onPath('mamba') ? 'mamba' : onPath('conda') ? 'conda' : null;
    expect(detectCondaFrontend()).toBe(expected);
    // The build machine this runs on has neither: the run below depends on it.
    expect(expected).toBeNull();
  });

  it('passes --use-conda, the front end and the shared prefix only where one was found', () => {
    const job = { workDir: '/w', cpus: 2, executionId: 1 } as EngineJobInput;
    const withConda = snakemakeArgs(
      '/wf/Snakefile',
      job,
      '/w/c.json',
      { major: 7, text: '7.21.0' },
      {},
      condaArgs('conda', '/data/conda'),
    );
    expect(withConda.join(' ')).toContain('--use-conda --conda-frontend conda --conda-prefix /data/conda');
    const without = snakemakeArgs(
      '/wf/Snakefile',
      job,
      '/w/c.json',
      { major: 7, text: '7.21.0' },
      {},
      condaArgs(null, '/data/conda'),
    );
    expect(without).not.toContain('--use-conda');
  });
});

describe('a version with conda environments where conda is missing', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit(CONDA_MANIFESTS);
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('runs with the tools on PATH and says so in its log', async () => {
    const pipelines = (
      await kit.api<Array<{ versions: Array<{ id: number; can_run: boolean }> }>>('/api/pipelines', kit.adminToken)
    ).body;
    const version = pipelines[0]!.versions[0]!;
    expect(version.can_run).toBe(true);
    const sample = await kit.createSample(
      kit.adminToken,
      'c1',
      await kit.upload(kit.adminToken, 'c1_R1.fastq', fastqText({ reads: 25, length: 40, seed: 51 })),
    );
    const run = await kit.run(kit.adminToken, version.id, { samples: [sample] });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 90_000);
    expect(done.status).toBe('completed');
    const logs = (
      await kit.api<{ items: Array<{ message: string }> }>(`/api/executions/${done.id as number}/logs`, kit.adminToken)
    ).body.items;
    expect(logs.map((l) => l.message)).toContain(
      "conda is not installed here: the workflow's conda environments are not used; its rules run with the tools on PATH",
    );
    const output = (done.outputs as Array<{ id: number; filename: string }>).find(
      (o) => o.filename === 'c1.lines.txt',
    )!;
    const text = await (
      await kit.service.api(`/api/data/${output.id}/download`, {
        headers: { authorization: `Bearer ${kit.adminToken}` },
      })
    ).text();
    expect(text.trim()).toBe('100');
  });
});
