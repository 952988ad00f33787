import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { login, setupAdmin } from '../identity/helpers';

describe('lanes across a restart', () => {
  const dir = tempDir();
  const data = tempDir();
  let service: TestService | null = null;
  afterAll(async () => {
    await service?.stop();
    dir.remove();
    data.remove();
  });

  it('runs a lane interrupted by a shutdown again at the next start, creating its samples once', async () => {
    service = await startTestService({ dataDir: data.path });
    const alice = await setupAdmin(service, 'alice');
    const gen = generateLane({ dir: dir.path, reads: 20_000, samples: 3, kind: 'header', readLength: 50, seed: 5 });
    const sheet = [
      'Sample Name,Barcode,Organism,Category',
      ...gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,RNA`),
    ].join('\n');
    const form = new FormData();
    form.append('name', 'interrupted');
    form.append('annotation', new Blob([sheet]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane.fastq');
    const res = await service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: number };
    // Stop at once: the worker has barely started.
    await service.stop();
    const db = new Database(join(data.path, 'laneway.sqlite'), { readonly: true });
    const left = db.prepare('SELECT status, progress FROM lanes WHERE id = ?').get(id) as { status: string };
    const samplesLeft = (db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n;
    db.close();
    expect(left.status).toBe('demultiplexing');
    expect(samplesLeft).toBe(0);
    service = await startTestService({ dataDir: data.path });
    const again = await login(service, 'alice', 'correct horse');
    let lane: {
      status: string;
      samples: Array<{ sample_id: number | null; reads: number | null }>;
      total_reads: number;
    } | null = null;
    for (let i = 0; i < 600; i++) {
      const r = await service.api(`/api/lanes/${id}`, { headers: { authorization: `Bearer ${again.token}` } });
      lane = (await r.json()) as typeof lane;
      if (lane!.status !== 'demultiplexing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lane).toMatchObject({ status: 'complete', total_reads: 20_000 });
    expect(lane!.samples.every((s) => s.sample_id !== null && s.reads! > 0)).toBe(true);
    const samples = await service.api(`/api/samples/?lane=${id}`, {
      headers: { authorization: `Bearer ${again.token}` },
    });
    expect(((await samples.json()) as { count: number }).count).toBe(3);
  }, 90_000);
});
