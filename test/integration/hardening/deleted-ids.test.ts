/**
 * Found by the stateful property suite (issue 24 item 8): SQLite gave the id of a deleted row
 * to the next one, so links that outlive a row by design (an execution's samples, an upload's
 * record) attached themselves to a stranger. Ids of samples and data records are never reused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { postChunk } from '../data/upload-helpers';
import { FIXTURE_MANIFESTS, startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { name: string; versions: Array<{ id: number; is_latest: boolean }> };

describe('the id of a deleted sample or data record is never handed out again', () => {
  let kit: Kit;
  let steps: number;
  let alice: { id: number; token: string };
  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const pipelines = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    steps = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.is_latest)!.id;
    alice = await kit.createUser('alice');
  });
  afterAll(async () => {
    await kit.stop();
  });

  const reads = (seed: number) => fastqText({ reads: 20, seed, name: `s${seed}` });

  it('an execution on a deleted sample does not name, share along or re-run the next sample', async () => {
    const first = await kit.createSample(alice.token, 'first', await kit.upload(alice.token, 'a.fastq', reads(1)));
    const run = await kit.run(alice.token, steps, { samples: [first], parameters: { steps: 1 } });
    expect(run.status).toBe(201);
    const execution = run.body.id as number;
    await kit.waitFor(alice.token, execution, ['completed']);
    expect((await kit.api(`/api/samples/${first}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    const second = await kit.createSample(alice.token, 'second', await kit.upload(alice.token, 'b.fastq', reads(2)));
    expect(second).not.toBe(first);
    const e = await kit.api<{ samples: Array<{ id: number; name: string | null }> }>(
      `/api/executions/${execution}`,
      alice.token,
    );
    expect(e.body.samples).toEqual([{ id: first, name: null }]);
    const group = await kit.api<{ slug: string }>('/api/groups/', alice.token, { body: { name: 'Lab' } });
    const share = await kit.api<{ included: Record<string, unknown> }>(`/api/samples/${second}/share/`, alice.token, {
      body: { group: group.body.slug, permission: 'view', with_data: true },
    });
    // Its read, and no run: nothing ran on this sample.
    expect(share.body.included).toMatchObject({ samples: 0, data: 1, executions: 0, skipped: 0 });
    const rerun = await kit.api(`/api/executions/${execution}/rerun`, alice.token, { body: {} });
    expect(rerun.status).not.toBe(201);
    // Sharing the execution with its reads and results: its deleted sample is nothing to share,
    // not something "skipped" (kept private), as it once was counted.
    const withData = await kit.api<{ included: Record<string, unknown> }>(
      `/api/executions/${execution}/share/`,
      alice.token,
      { body: { group: group.body.slug, permission: 'view', with_data: true } },
    );
    expect(withData.body.included).toMatchObject({ samples: 0, skipped: 0 });
  });

  it('a completed upload whose record was deleted does not answer with the next record', async () => {
    const bytes = Buffer.from(reads(3));
    const fields = { filename: 'c.fastq', chunk: 0, total_chunks: 1, file_id: 'upload-c' };
    const done = await postChunk(kit.service.url, alice.token, fields, bytes);
    expect(done.status).toBe(200);
    const old = done.body.id as number;
    expect((await kit.api(`/api/data/${old}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    const next = await kit.upload(alice.token, 'd.fastq', reads(4));
    expect(next).not.toBe(old);
    const again = await postChunk(kit.service.url, alice.token, fields, bytes);
    // Either forgotten (404) or stored again as a record of its own: never d.fastq's record.
    if (again.status === 200) expect(again.body).toMatchObject({ filename: 'c.fastq' });
    else expect(again).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(again.body.id).not.toBe(next);
  });
});
