/**
 * `GET /api/samples/qc?ids=...`: the samples screen's read counts for uploaded samples, which
 * are not counted on arrival. A sample's figures come from its newest completed QC run; a
 * sample without one has null figures; samples the caller cannot see, and ids of no sample, are
 * left out; malformed lists answer 400 with the error body.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import type { QcSummaryResponse } from '../../../src/shared/service-api/reports';
import { startKit, type Kit } from './pipeline-kit';

// A real QC run on a shared two-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number }> };

describe('QC figures for a list of samples', () => {
  let kit: Kit;
  let paired: number;
  let single: number;
  let unchecked: number;
  let other: { id: number; token: string };

  beforeAll(async () => {
    kit = await startKit();
    const qc = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body.find(
      (p) => p.name === 'FASTQ Quality Control',
    )!;
    const up = (name: string, reads: number, seed: number) =>
      kit.upload(kit.adminToken, name, fastqText({ reads, seed, name: name.slice(0, 1) }));
    paired = await kit.createSample(
      kit.adminToken,
      'paired',
      await up('P_R1.fastq', 300, 1),
      await up('P_R2.fastq', 300, 2),
    );
    single = await kit.createSample(kit.adminToken, 'single', await up('S_R1.fastq', 120, 3));
    unchecked = await kit.createSample(kit.adminToken, 'unchecked', await up('U_R1.fastq', 50, 4));
    const run = await kit.run(kit.adminToken, qc.versions.at(-1)!.id, { samples: [paired, single] });
    expect(run.status).toBe(201);
    expect((await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'])).status).toBe(
      'completed',
    );
    other = await kit.createUser('bea');
  });
  afterAll(() => kit.stop());

  it("gives each visible sample its newest QC run's read count, and null figures to one never checked", async () => {
    const res = await kit.api<QcSummaryResponse>(
      `/api/samples/qc?ids=${unchecked},${paired},999999,${single},${paired}`,
      kit.adminToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.samples.map((r) => [r.sample, r.reads, r.files, r.execution_id === null])).toEqual([
      ['paired', 300, 2, false],
      ['single', 120, 1, false],
      ['unchecked', null, 0, true],
    ]);
  });

  it('leaves out samples another user cannot see', async () => {
    const res = await kit.api<QcSummaryResponse>(`/api/samples/qc?ids=${paired},${single}`, other.token);
    expect(res.status).toBe(200);
    expect(res.body.samples).toEqual([]);
  });

  it('refuses malformed lists with the error body, and anonymous callers', async () => {
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    for (const ids of ['', 'abc', '1,,2', '0', '-1', '1;2', hundredAndOne, '1'.repeat(17)]) {
      const res = await kit.api<{ code: string; status: number; fields: Record<string, string> }>(
        `/api/samples/qc?ids=${encodeURIComponent(ids)}`,
        kit.adminToken,
      );
      expect([ids.slice(0, 20), res.status, res.body.code, res.body.status]).toEqual([
        ids.slice(0, 20),
        400,
        'VALIDATION_ERROR',
        400,
      ]);
      expect(res.body.fields).toHaveProperty('ids');
    }
    expect((await kit.api(`/api/samples/qc?ids=${paired}`, null)).status).toBe(401);
    // No list, no rows (and without a token, 401 before anything else).
    expect((await kit.api<QcSummaryResponse>('/api/samples/qc', kit.adminToken)).body).toEqual({ samples: [] });
    expect((await kit.api('/api/samples/qc', null)).status).toBe(401);
  });
});
