/**
 * Issue 19 items 7 and 8 on the REST lane upload: sample names the caller already has on the
 * service refuse the lane with the spec's warning body (409 ANNOTATION_WARNINGS naming each row
 * and the existing sample) before anything is created; `ignore_warnings=true` makes the second
 * samples. The lane's name travels onto its samples as metadata (`lane_name`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { generateLane, type GeneratedLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

function csvOf(lane: GeneratedLane): string {
  const rows = lane.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Total RNA`);
  return ['Sample Name,Barcode,Organism,Category', ...rows].join('\n') + '\n';
}

describe('REST lane upload: names already on the service, and the lane name on samples', () => {
  const dir = tempDir();
  const suite = adminSuite('alice');
  let gen: GeneratedLane;
  afterAll(() => {
    dir.remove();
  });
  beforeAll(async () => {
    gen = generateLane({ dir: dir.path, reads: 1200, samples: 3, kind: 'header', seed: 19 });
  });

  const postLane = async (name: string, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('name', name);
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    form.append('annotation', new Blob([csvOf(gen)]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane.fastq');
    const res = await suite.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.admin.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const get = async <T>(path: string) =>
    (await (await suite.service.api(path, { headers: { authorization: `Bearer ${suite.admin.token}` } })).json()) as T;
  const waitDone = async (id: number) => {
    for (;;) {
      const lane = await get<{ status: string; samples: Array<{ name: string; sample_id: number | null }> }>(
        `/api/lanes/${id}`,
      );
      if (lane.status !== 'demultiplexing') return lane;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('makes the lane; its samples carry the lane name', async () => {
    const res = await postLane('Flowcell A lane 1');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const lane = await waitDone(res.body.id as number);
    expect(lane.status).toBe('complete');
    const sample = await get<{ metadata: Record<string, unknown> }>(`/api/samples/${lane.samples[0]!.sample_id}`);
    expect(sample.metadata.lane_name).toBe('Flowcell A lane 1');
  });

  it('refuses the same names again with the warning body, creating nothing; ignore_warnings makes them', async () => {
    const before = (await get<{ count: number }>('/api/samples/')).count;
    const refused = await postLane('Flowcell A lane 1 again');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ANNOTATION_WARNINGS');
    expect(refused.body.error).toMatch(/3 sample name\(s\) are already on the service: send ignore_warnings=true/);
    const warnings = refused.body.warnings as Array<{ row: number; column: string; message: string }>;
    expect(warnings.map((w) => [w.row, w.column])).toEqual([
      [2, 'Sample Name'],
      [3, 'Sample Name'],
      [4, 'Sample Name'],
    ]);
    expect(warnings[0]!.message).toMatch(/"S01" is already a sample on the service \(sample \d+\)/);
    expect((await get<{ count: number }>('/api/lanes/')).count).toBe(1);
    expect((await get<{ count: number }>('/api/samples/')).count).toBe(before);

    const again = await postLane('Flowcell A lane 1 again', { ignore_warnings: 'true' });
    expect(again.status).toBe(202);
    const lane = await waitDone(again.body.id as number);
    expect(lane.status).toBe('complete');
    expect((await get<{ count: number }>('/api/samples/')).count).toBe(before + 3);
  });
});
