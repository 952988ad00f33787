/**
 * The electron-vite bundle is what the packaged app runs: out/main/service.js in a
 * utilityProcess, starting its workers by base name beside it. Electron cannot run here, but
 * the bundle is plain Node code, so this runs it under Node and drives a pipeline through it:
 * the catalogue comes from resources/, and the QC worker, its threads and the sheet-parsing
 * thread start from out/main.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuild } from '../../../src/cli/app-build.mjs';
import { tempDir } from '../../helpers/temp';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLE = join(ROOT, 'out', 'main', 'service.js');

function fastq(reads: number): string {
  let text = '';
  for (let i = 0; i < reads; i++) text += `@r${i}\n${'ACGTTGCA'.repeat(10)}\n+\n${'I'.repeat(80)}\n`;
  return text;
}

describe('the bundled service (out/main/service.js) under plain Node', () => {
  const dir = tempDir();
  let url = '';
  let token = '';
  let child: ReturnType<typeof spawn>;

  beforeAll(async () => {
    // Built when missing or older than its sources (never a stale bundle).
    expect(await ensureAppBuild()).toBe(true);
    // No LANEWAY_* overrides: the bundle must find resources and workers by itself.
    const env = { ...process.env };
    delete env.LANEWAY_PIPELINES_DIR;
    delete env.LANEWAY_VOCABULARIES_DIR;
    delete env.LANEWAY_RESOURCES;
    child = spawn(process.execPath, [BUNDLE, '--data', dir.path, '--port', '0', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const msg = JSON.parse(line) as { event?: string; url?: string };
        if (msg.event === 'listening' && msg.url) resolve(msg.url);
      });
      child.once('exit', (code) => reject(new Error(`bundled service exited (${code})`)));
    });
    const json = { 'content-type': 'application/json' };
    const account = { username: 'admin', password: 'bundle password 1' };
    const setup = await fetch(`${url}/api/setup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ ...account, email: 'admin@lab.example', name: 'Admin' }),
    });
    expect(setup.status).toBe(201);
    const login = await fetch(`${url}/api/login`, { method: 'POST', headers: json, body: JSON.stringify(account) });
    token = ((await login.json()) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    dir.remove();
  });

  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('lists the shipped catalogue and vocabularies', async () => {
    const pipelines = (await api('/api/pipelines')).body as unknown as Array<{ name: string }>;
    expect(pipelines.map((p) => p.name)).toEqual(expect.arrayContaining(['FASTQ Quality Control', 'Demultiplexing']));
    const organisms = (await api('/api/organisms')).body as unknown as Array<{ name: string }>;
    expect(organisms.map((o) => o.name)).toContain('Homo sapiens');
  });

  it('reads a lane annotation in its sheet-parsing thread started from the bundle', async () => {
    const post = async (sheet: string, fields: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('name', 'bundle lane');
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('annotation', new Blob([sheet]), 'lane.csv');
      form.append('file', new Blob([fastq(20)]), 'reads.fastq');
      const res = await fetch(`${url}/api/upload/multiplexed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const wide = await post(`Sample Name,Barcode,${Array.from({ length: 1_200 }, (_, i) => `c${i}`).join(',')}\n`);
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatch(/more than 1,000 columns \(the limit\)/);
    // The thread also samples the reads: none carries B1's barcode, so the lane is refused first.
    const sheet = 'Sample Name,Barcode,Organism,Category\nB1,ACGTACGT,Homo sapiens,Total RNA\n';
    const refused = await post(sheet);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/Most reads match no sample/);
    const good = await post(sheet, { ignore_warnings: 'true' });
    expect(good.status).toBe(202);
  });

  it('runs the QC pipeline with its worker started from the bundle', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ filename: 'b.fastq', chunk: '0', total_chunks: '1', file_id: 'bundle-1' })) {
      form.append(k, v);
    }
    form.append('file', new Blob([fastq(500)]), 'b.fastq');
    const up = await fetch(`${url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const dataId = ((await up.json()) as { id: number }).id;
    const sample = await api('/api/samples/', {
      name: 'B1',
      read1: dataId,
      metadata: { Organism: 'Homo sapiens', Category: 'Genomic DNA' },
    });
    expect(sample.status).toBe(201);
    const pipelines = (await api('/api/pipelines')).body as unknown as Array<{
      name: string;
      versions: Array<{ id: number; is_latest: boolean }>;
    }>;
    const qc = pipelines.find((p) => p.name === 'FASTQ Quality Control')!;
    const version = qc.versions.find((v) => v.is_latest)!;
    const run = await api(`/api/pipelines/versions/${version.id}/run`, {
      name: 'bundle qc',
      samples: [sample.body.id],
    });
    expect(run.status).toBe(201);
    let execution: Record<string, unknown> = run.body;
    const deadline = Date.now() + 60_000;
    while (!['completed', 'failed', 'cancelled'].includes(execution.status as string) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      execution = (await api(`/api/executions/${run.body.id}`)).body;
    }
    expect(execution.status, JSON.stringify(execution.error)).toBe('completed');
    const outputs = execution.outputs as Array<{ data_type: string; size: number }>;
    expect(outputs.map((o) => o.data_type)).toEqual(expect.arrayContaining(['qc_json', 'html']));
    expect(outputs.every((o) => o.size > 0)).toBe(true);
  }, 90_000);
});
