/**
 * Issue 11 part 8, crash test for demultiplexing: `laneway serve` is killed with SIGKILL while a
 * lane demultiplexes (its worker is ended by the parent watch, not by a clean shutdown). At the
 * next start the lane runs again and completes: every read assigned, its samples created once,
 * nothing duplicated, no leftover worker. (Uploads: data/upload-crash.test.ts; pipelines:
 * pipelines/restart.test.ts and hardening/process-hygiene.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { jsonCall } from '../../helpers/json-call';
import { tempDir } from '../../helpers/temp';
import { eventually, processesWith } from '../pipelines/proc-helpers';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

describe('kill -9 during demultiplexing (issue 11 part 8)', () => {
  const dir = tempDir();
  const data = tempDir();
  let serve: ServeProcess | null = null;
  afterAll(async () => {
    await serve?.stop();
    dir.remove();
    data.remove();
  });

  const json = async (url: string, path: string, token: string | null, body?: unknown) =>
    (await jsonCall(url, path, token, body)).body;
  const login = async (url: string) =>
    (await json(url, '/api/login', null, { username: 'alice', password: 'correct horse' })).token as string;

  it('runs the interrupted lane again at the next start: samples once, every read assigned', async () => {
    serve = await startServeProcess({ dataDir: data.path, keepData: true });
    await json(serve.url, '/api/setup', null, {
      username: 'alice',
      password: 'correct horse',
      email: 'a@lab.test',
      name: 'A',
    });
    const token = await login(serve.url);
    const gen = generateLane({ dir: dir.path, reads: 200_000, samples: 3, kind: 'header', readLength: 50, seed: 9 });
    const sheet = [
      'Sample Name,Barcode,Organism,Category',
      ...gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,RNA`),
    ].join('\n');
    const form = new FormData();
    form.append('name', 'killed');
    form.append('annotation', new Blob([sheet]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane.fastq');
    const res = await fetch(`${serve.url}/api/upload/multiplexed`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: number };
    // Kill while the worker runs (it is found by its job file in this data folder).
    expect(await eventually(() => processesWith(data.path).length > 0, 30_000)).toBe(true);
    serve.cli.child.kill('SIGKILL');
    await serve.cli.exit;
    // The worker ends with its parent, whatever it was doing.
    expect(await eventually(() => processesWith(data.path).length === 0, 15_000)).toBe(true);
    const db = new Database(join(data.path, 'laneway.sqlite'), { readonly: true });
    const left = db.prepare('SELECT status FROM lanes WHERE id = ?').get(id) as { status: string };
    const samplesLeft = (db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n;
    db.close();
    expect(left.status).toBe('demultiplexing');
    expect(samplesLeft).toBe(0);

    serve = await startServeProcess({ dataDir: data.path, keepData: true });
    const again = await login(serve.url);
    let lane: Record<string, unknown> = {};
    for (let i = 0; i < 1200; i++) {
      lane = await json(serve.url, `/api/lanes/${id}`, again);
      if (lane.status !== 'demultiplexing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lane).toMatchObject({ status: 'complete', total_reads: 200_000 });
    const samples = lane.samples as Array<{ sample_id: number | null; reads: number | null }>;
    expect(samples.every((s) => s.sample_id !== null && s.reads! > 0)).toBe(true);
    const assigned = samples.reduce((n, s) => n + s.reads!, 0) + (lane.undetermined_reads as number);
    expect(assigned).toBe(200_000);
    expect((await json(serve.url, `/api/samples/?lane=${id}`, again)).count).toBe(3);
  });
});
