import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../helpers/eventually';
import { startTestService, type TestService } from '../../helpers/test-service';
import { tempDir } from '../../helpers/temp';
import { call, setupAdmin } from '../identity/helpers';
import { LIFECYCLE_MANIFESTS } from './lifecycle-fixtures';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

describe('resume after the service stopped mid-run', () => {
  const data = tempDir('laneway-interrupted-');
  const scratch = tempDir('laneway-interrupted-files-');
  let service: TestService | null = null;
  afterAll(async () => {
    await service?.stop();
    data.remove();
    scratch.remove();
    delete process.env.LANEWAY_PIPELINES_DIR;
  });

  it('continues the interrupted Snakemake run in the next service on the same data folder', async () => {
    process.env.LANEWAY_PIPELINES_DIR = LIFECYCLE_MANIFESTS;
    service = await startTestService({ dataDir: data.path });
    const admin = await setupAdmin(service);
    const pipelines = (await call(service, 'GET', '/api/pipelines', { token: admin.token })).body as unknown as Array<{
      name: string;
      versions: Array<{ id: number }>;
    }>;
    const version = pipelines.find((p) => p.name === 'Test Resumable')!.versions[0]!.id;
    const form = new FormData();
    for (const [k, v] of Object.entries({ filename: 'I1.fastq', chunk: '0', total_chunks: '1', file_id: 'i1' }))
      form.append(k, v);
    form.append('file', new Blob(['@r\nACGT\n+\nIIII\n']), 'I1.fastq');
    const up = await service.api('/api/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    const dataId = ((await up.json()) as { id: number }).id;
    const sample = (
      await call(service, 'POST', '/api/samples/', {
        token: admin.token,
        body: { name: 'I1', read1: dataId, metadata: { Organism: 'Homo sapiens', Category: 'Genomic DNA' } },
      })
    ).body.id as number;
    const counter = join(scratch.path, 'counter.txt');
    const gate = join(scratch.path, 'gate');
    const run = await call(service, 'POST', `/api/pipelines/versions/${version}/run`, {
      token: admin.token,
      body: { samples: [sample], parameters: { counter, gate, wait_for_gate: true } },
    });
    expect(run.status).toBe(201);
    const id = run.body.id as number;
    const s = service;
    // Step one done, step two waiting for the gate: stop the service under it.
    await eventually(
      async () => {
        const e = (await call(s, 'GET', `/api/executions/${id}`, { token: admin.token })).body as {
          process_executions: Array<{ name: string; status: string }>;
        };
        return e.process_executions.some((p) => p.name.startsWith('second') && p.status === 'running')
          ? true
          : undefined;
      },
      'step two to run',
      60_000,
    );
    await service.close();
    service = null;

    service = await startTestService({ dataDir: data.path });
    const interrupted = (await call(service, 'GET', `/api/executions/${id}`, { token: admin.token })).body;
    expect(interrupted).toMatchObject({ status: 'failed', resume: { allowed: true, reason: null } });
    expect(interrupted.error).toMatch(/Interrupted/);
    writeFileSync(gate, 'open');
    const resumed = await call(service, 'POST', `/api/executions/${id}/resume`, { token: admin.token });
    expect(resumed.status).toBe(200);
    const t = service;
    const done = await eventually(
      async () => {
        const e = (await call(t, 'GET', `/api/executions/${id}`, { token: admin.token })).body;
        return ['completed', 'failed'].includes(e.status as string) ? e : undefined;
      },
      'the resumed run to end',
      60_000,
    );
    expect(done.status, JSON.stringify(done.logs).slice(-1500)).toBe('completed');
    expect(readFileSync(counter, 'utf8')).toBe('I1\n');
    expect(done.outputs).toEqual([expect.objectContaining({ filename: 'I1.done.txt' })]);
  });
});
