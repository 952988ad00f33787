/**
 * Issue 20 item 3: sharing a project "with its reads and results" lets a colleague read the
 * samples' reads and the outputs of the runs on them; the API's default (without `with_data`)
 * keeps the derived-data rule: the project only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE_MANIFESTS, startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { name: string; versions: Array<{ id: number; is_latest: boolean }> };

describe('share a project with its reads and results', () => {
  let kit: Kit;
  let colleague: { id: number; token: string };
  let slug: string;
  let steps: number;

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    steps = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body
      .find((p) => p.name === 'Test Steps')!
      .versions.find((v) => v.is_latest)!.id;
    colleague = await kit.createUser('colleague');
    slug = (await kit.api<{ slug: string }>('/api/groups/', kit.adminToken, { body: { name: 'Liver team' } })).body
      .slug;
    await kit.api(`/api/groups/${slug}/invite/`, kit.adminToken, {
      body: { emails: ['colleague@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, colleague.token, { method: 'POST' })).status).toBe(200);
  });
  afterAll(async () => {
    await kit.stop();
  });

  /** A project of one sample with its reads and a completed run on it. */
  const project = async (tag: string) => {
    const read = await kit.upload(kit.adminToken, `${tag}_R1.fastq`, `@${tag}\nACGTACGT\n+\nIIIIIIII\n`);
    const sample = (
      await kit.api<{ id: number }>('/api/samples/', kit.adminToken, {
        body: { name: `${tag}_liver`, read1: read, metadata: { organism: 'Homo sapiens', category: 'Total RNA' } },
      })
    ).body.id;
    const run = await kit.run(kit.adminToken, steps, {
      name: `${tag} run`,
      samples: [sample],
      parameters: { steps: 1 },
    });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed']);
    const output = (done.outputs as Array<{ id: number }>)[0]!.id;
    const p = await kit.api<{ id: number }>('/api/projects/', kit.adminToken, {
      body: { name: `${tag} project`, sample_ids: [sample] },
    });
    return { project: p.body.id, sample, read, execution: run.body.id as number, output };
  };
  const status = async (path: string) => {
    const res = await kit.service.api(path, { headers: { authorization: `Bearer ${colleague.token}` } });
    await res.arrayBuffer();
    return res.status;
  };

  it('without with_data (the API default) shares the project only', async () => {
    const p = await project('plain');
    const shared = await kit.api<{ included: Record<string, unknown> }>(
      `/api/projects/${p.project}/share/`,
      kit.adminToken,
      {
        body: { group: slug, permission: 'view' },
      },
    );
    expect(shared.body.included).toEqual({ with_data: false, samples: 0, data: 0, executions: 0, skipped: 0 });
    expect(await status(`/api/projects/${p.project}`)).toBe(200);
    expect(await status(`/api/data/${p.read}/download`)).not.toBe(200);
    expect(await status(`/api/data/${p.output}/download`)).not.toBe(200);
  });

  it('with with_data shares its samples, their reads, the runs on them and their outputs, at view', async () => {
    const p = await project('full');
    const shared = await kit.api<{ included: Record<string, unknown> }>(
      `/api/projects/${p.project}/share/`,
      kit.adminToken,
      {
        body: { group: slug, permission: 'view', with_data: true },
      },
    );
    expect(shared.status).toBe(200);
    expect(shared.body.included).toMatchObject({ with_data: true, samples: 1, executions: 1, skipped: 0 });
    expect(shared.body.included.data).toBeGreaterThanOrEqual(2);
    expect((await kit.api<{ name: string }>(`/api/samples/${p.sample}`, colleague.token)).body.name).toBe('full_liver');
    expect(await status(`/api/data/${p.read}/download`)).toBe(200);
    expect(await status(`/api/executions/${p.execution}`)).toBe(200);
    expect(await status(`/api/data/${p.output}/download`)).toBe(200);
    // At view: the colleague may not change or re-share them.
    const edit = await kit.api(`/api/samples/${p.sample}/share/`, colleague.token, {
      body: { group: slug, permission: 'view' },
    });
    expect(edit.status).toBe(403);
  });
});
