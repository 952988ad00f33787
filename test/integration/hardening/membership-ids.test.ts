/**
 * Issue 24: a project's `sample_ids` and a sample's `project_ids` named ids the caller cannot
 * see, and the Flow mount (REST and legacy GraphQL) named a sample's first project even when
 * that project was private: its name reached a colleague the sample alone was shared with. Now
 * every surface lists only what the caller may see; a project still names all its samples (its
 * viewers see the names its owner sees, issue 20), with ids only on the samples they may see.
 * A shared output, likewise, names the sample and the run it came from only when they are
 * visible. Real service over HTTP, two users.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { flowFetch } from '../../helpers/flow/flow-wire-client';
import { startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Project = { id: number; sample_ids: number[]; samples: Array<{ id?: number; name: string }> };
type Sample = { id: number; project_ids: number[] };

describe('ids of what the caller cannot see are not listed (issue 24)', () => {
  let kit: Kit;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let flowToken: string;
  let privateSample: number;
  let sharedSample: number;
  let hiddenProject: number;
  let slug: string;
  let sharedProject: number;
  const flow = (path: string, token: string) => flowFetch(`${kit.service.url}/flow/api`, path, { token });

  beforeAll(async () => {
    kit = await startKit();
    alice = await kit.createUser('alice');
    bob = await kit.createUser('bob');
    slug = (await kit.api<{ slug: string }>('/api/groups/', alice.token, { body: { name: 'Lab' } })).body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, alice.token, {
      body: { emails: ['bob@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, bob.token, { method: 'POST' })).status).toBe(200);
    const read = async (n: number) =>
      kit.upload(alice.token, `r${n}.fastq`, fastqText({ reads: 4, length: 30, seed: n }));
    privateSample = await kit.createSample(alice.token, 'private-liver', await read(1));
    sharedSample = await kit.createSample(alice.token, 'shared-liver', await read(2));
    // The private project first, so that it is the sample's first project by id.
    const project = async (name: string, sample_ids: number[]) =>
      (await kit.api<{ id: number }>('/api/projects/', alice.token, { body: { name, sample_ids } })).body.id;
    hiddenProject = await project('Hidden plan', [sharedSample]);
    sharedProject = await project('Shared study', [privateSample, sharedSample]);
    const share = (segment: string, id: number) =>
      kit.api(`/api/${segment}/${id}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    expect((await share('projects', sharedProject)).status).toBe(200);
    expect((await share('samples', sharedSample)).status).toBe(200);
    const login = await flowFetch(`${kit.service.url}/flow/api`, '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'bob password 1' }),
    });
    flowToken = login.body.token as string;
  });
  afterAll(async () => {
    await kit.stop();
  });

  it("/api: a project's sample_ids and a sample's project_ids list only what the caller may see", async () => {
    const asBob = (await kit.api<Project>(`/api/projects/${sharedProject}`, bob.token)).body;
    expect(asBob.sample_ids).toEqual([sharedSample]);
    // The names stay (part of the project), the private sample's id does not.
    expect(asBob.samples).toEqual([{ name: 'private-liver' }, { id: sharedSample, name: 'shared-liver' }]);
    const listed = (await kit.api<{ items: Project[] }>('/api/projects/', bob.token)).body.items;
    expect(listed.map((p) => [p.id, p.sample_ids])).toEqual([[sharedProject, [sharedSample]]]);
    expect((await kit.api<Sample>(`/api/samples/${sharedSample}`, bob.token)).body.project_ids).toEqual([
      sharedProject,
    ]);
    // The owner sees everything, as before.
    const asAlice = (await kit.api<Project>(`/api/projects/${sharedProject}`, alice.token)).body;
    expect(asAlice.sample_ids).toEqual([privateSample, sharedSample]);
    expect(asAlice.samples).toEqual([
      { id: privateSample, name: 'private-liver' },
      { id: sharedSample, name: 'shared-liver' },
    ]);
    expect((await kit.api<Sample>(`/api/samples/${sharedSample}`, alice.token)).body.project_ids).toEqual([
      hiddenProject,
      sharedProject,
    ]);
  });

  it('the Flow mount names only a project the caller may see, and counts only samples they may see', async () => {
    const detail = await flow(`/samples/${sharedSample}`, flowToken);
    expect(detail.status).toBe(200);
    expect(detail.body.project).toEqual({ id: String(sharedProject), name: 'Shared study' });
    expect(detail.text).not.toContain('Hidden plan');
    const search = await flow('/samples/search', flowToken);
    const items = search.body.samples as Array<{ id: string; project_name: string | null }>;
    expect(items.find((s) => s.id === String(sharedSample))?.project_name).toBe('Shared study');
    expect(search.text).not.toContain('Hidden plan');
    const projects = (await flow('/projects/search', flowToken)).body.projects as Array<{
      id: string;
      sample_count: number;
    }>;
    expect(projects).toEqual([expect.objectContaining({ id: String(sharedProject), sample_count: 1 })]);
    // As many as /projects/{id}/samples lists.
    expect(((await flow(`/projects/${sharedProject}/samples`, flowToken)).body.samples as unknown[]).length).toBe(1);
  });

  it('a shared output names neither the sample nor the run it came from when they are not shared', async () => {
    const qc = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; is_latest: boolean }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body
      .find((p) => p.name === 'FASTQ Quality Control')!
      .versions.find((v) => v.is_latest)!.id;
    const run = await kit.run(alice.token, qc, { samples: [privateSample] });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(alice.token, run.body.id as number, ['completed', 'failed'], 150_000);
    expect(done.status).toBe('completed');
    const output = (done.outputs as Array<{ id: number; data_type: string; sample_id: number | null }>).find(
      (o) => o.data_type === 'qc_json',
    )!;
    expect(output.sample_id).toBe(privateSample);
    const shared = await kit.api(`/api/data/${output.id}/share/`, alice.token, {
      body: { group: slug, permission: 'view' },
    });
    expect(shared.status).toBe(200);
    // The owner sees where it came from; bob, who may read the file only, does not.
    expect((await kit.api(`/api/data/${output.id}`, alice.token)).body).toMatchObject({
      sample_id: privateSample,
      execution_id: run.body.id,
    });
    expect((await kit.api(`/api/data/${output.id}`, bob.token)).body).toMatchObject({
      id: output.id,
      sample_id: null,
      execution_id: null,
    });
    const flowData = await flow(`/data/${output.id}`, flowToken);
    expect(flowData.status).toBe(200);
    expect(flowData.body).toMatchObject({ sample: null, execution: null });
    const legacy = await kit.service.api('/flow/api/graphql', {
      method: 'POST',
      headers: { authorization: bob.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query d($id: ID) { data(id: $id) { id sample { id name } upstreamProcessExecution { id } } }',
        variables: { id: String(output.id) },
      }),
    });
    const body = (await legacy.json()) as { data: { data: Record<string, unknown> } };
    expect(body.data.data).toEqual({ id: String(output.id), sample: null, upstreamProcessExecution: null });
  });

  it('the legacy GraphQL sample names only a project the caller may see', async () => {
    const res = await kit.service.api('/flow/api/graphql', {
      method: 'POST',
      headers: { authorization: bob.token, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query s($id: ID!) { sample(id: $id) { id project { id name } } }',
        variables: { id: String(sharedSample) },
      }),
    });
    const body = (await res.json()) as { data: { sample: { project: { id: string; name: string } | null } } };
    expect(body.data.sample.project).toEqual({ id: String(sharedProject), name: 'Shared study' });
  });
});
