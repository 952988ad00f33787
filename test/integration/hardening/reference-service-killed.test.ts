/**
 * Issue 24 item 6: "`minimap2 -d` survives a SIGKILL of the service (PPID 1)". The real
 * `laneway serve` runs Read Alignment (the shipped Snakemake pipeline) on a FASTA no run has
 * indexed yet and is killed with SIGKILL while minimap2 indexes it. The service cannot end
 * anything itself then: the build's group keeper (process-tree.ts) sees its service gone and
 * ends the group, so no process of the build is left, none adopted by init, without a restart.
 * minimap2 is held with SIGSTOP (reference-build-helpers.ts): it cannot finish on its own, so
 * its end is the keeper's doing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { runCli, type CliProcess } from '../../helpers/cli';
import { jsonCall } from '../../helpers/json-call';
import { tempDir } from '../../helpers/temp';
import { SHIPPED_MANIFESTS } from '../pipelines/pipeline-kit';
import { fasta, groupMembers, holdLeader, processes } from './reference-build-helpers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

describe('a SIGKILL of the service ends its reference build (issue 24 item 6)', () => {
  const dir = tempDir('laneway-refkill-');
  const data = join(dir.path, 'data');
  let serve: CliProcess | null = null;
  afterAll(() => {
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
    // Whatever the outcome, no stopped minimap2 is left behind by the test.
    for (const p of processes('minimap2', data)) process.kill(p.pid, 'SIGKILL');
    dir.remove();
  });

  it('the build of a run is gone once the service is killed, with no orphan', async () => {
    serve = runCli(['serve', '--port', '0', '--data', data, '--json'], { LANEWAY_PIPELINES_DIR: SHIPPED_MANIFESTS });
    const { url } = await serve.waitForEvent<{ url: string }>('listening', 90_000);
    const call = <T = Record<string, unknown>>(path: string, token: string | null, body?: unknown) =>
      jsonCall<T>(url, path, token, body);
    const upload = async (token: string, filename: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('filename', filename);
      form.append('chunk', '0');
      form.append('total_chunks', '1');
      form.append('file_id', filename);
      form.append('file', new Blob([new Uint8Array(bytes)]), filename);
      const res = await fetch(`${url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { id: number };
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.id;
    };
    await call('/api/setup', null, { username: 'admin', password: 'admin password 1', email: 'a@lab.test', name: 'A' });
    const token = (
      await call<{ token: string }>('/api/login', null, { username: 'admin', password: 'admin password 1' })
    ).body.token;
    const pipelines = (
      await call<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>('/api/pipelines', token)
    ).body;
    const align = pipelines.find((p) => p.name === 'Read Alignment')!.versions.find((v) => v.version === '1.2.0')!.id;
    const reference = await upload(token, 'genome.fa', fasta(4, 6_000_000, 31));
    const reads = await upload(token, 'p1.fastq', Buffer.from(fastqText({ reads: 50, length: 80, seed: 5 })));
    const sample = await call<{ id: number }>('/api/samples/', token, {
      name: 'P1',
      read1: reads,
      metadata: { Organism: 'Homo sapiens', Category: 'Genomic DNA' },
    });
    expect(sample.status, JSON.stringify(sample.body)).toBe(201);
    const run = await call(`/api/pipelines/versions/${align}/run`, token, {
      samples: [sample.body.id],
      parameters: { reference },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);

    const leader = await vi.waitFor(
      () => {
        const held = holdLeader('minimap2', data);
        if (!held) throw new Error('minimap2 is not running yet');
        return held;
      },
      { timeout: 120_000, interval: 20 },
    );
    // The build is the service's child, in a group of its own with its keeper's watcher.
    expect(leader.ppid).toBe(serve.child.pid);
    expect(groupMembers(leader.pgrp).length).toBeGreaterThanOrEqual(2);

    serve.child.kill('SIGKILL');
    expect(await serve.exit).toMatchObject({ signal: 'SIGKILL' });
    // No restart: the keeper ends the group because the service that started it is gone.
    await vi.waitFor(() => expect(groupMembers(leader.pgrp)).toEqual([]), { timeout: 20_000, interval: 50 });
    expect(processes('minimap2', data)).toEqual([]);
    expect(processes('samtools', data)).toEqual([]);
    // The half-built index was never put in place.
    const refs = join(data, 'references');
    const built = existsSync(refs) ? readdirSync(refs).filter((f) => !f.includes('.tmp-')) : [];
    expect(built).toEqual([]);
  });
});
