/**
 * The Flow mount's reads and runs, checked from TypeScript (runs without Python): lookups,
 * projects and data, and a run from Flow's body to OK with its outputs downloaded
 * (FLOW-WIRE.md P1 and P2). flow-wire.test.ts covers sign-in and uploads.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import { writePair } from '../../helpers/flow/flow-fixtures';
import { flowFetch, uploadInChunks, flowToken } from '../../helpers/flow/flow-wire-client';
import { tempDir } from '../../helpers/temp';
import { addUser, call } from '../identity/helpers';

describe('Flow reads and runs at /flow/api', () => {
  const suite = adminSuite();
  let base: string;
  let token: string;
  const dir = tempDir('laneway-flow-reads-');

  afterAll(() => {
    dir.remove();
  });
  beforeAll(async () => {
    base = `${suite.service.url}/flow/api`;
    token = await flowToken(base);
    // A paired sample to read and run on, uploaded as flowbio uploads one.
    const { r1, r2 } = writePair(dir.path, 'wire', 30, 43);
    const fields = { sample_name: 'wire_1', sample_type: 'RNA', organism: 'Hs', tissue: 'liver' };
    const one = await uploadInChunks(base, '/upload/sample', token, 'wire_R1.fastq', readFileSync(r1), 2000, {
      ...fields,
      is_last_sample: 'false',
    });
    const two = await uploadInChunks(base, '/upload/sample', token, 'wire_R2.fastq', readFileSync(r2), 2000, {
      ...fields,
      is_last_sample: 'true',
      previous_data: [String(one.body.data_id)],
    });
    if (!two.body.sample_id) throw new Error(`sample upload failed: ${two.text}`);
  });

  it('serves the lookups in Flow shapes', async () => {
    const types = await flowFetch(base, '/samples/types', { token });
    expect(types.body).toEqual(
      expect.arrayContaining([{ identifier: 'RNA', name: 'RNA', description: expect.any(String) }]),
    );
    const organisms = (await flowFetch(base, '/organisms', { token })).body as unknown as Array<
      Record<string, unknown>
    >;
    expect(organisms.every((o) => typeof o.id === 'string' && typeof o.latin_name === 'string')).toBe(true);
    expect(new Set(organisms.map((o) => o.id)).size).toBe(organisms.length);
    const attrs = (await flowFetch(base, '/samples/metadata', { token })).body as unknown as Array<
      Record<string, unknown>
    >;
    expect(attrs.every((a) => typeof a.description === 'string' && typeof a.required === 'boolean')).toBe(true);
    await call(suite.service, 'POST', '/api/projects/', { token, body: { name: 'Owned one' } });
    const owned = await flowFetch(base, '/projects/owned', { token });
    expect(owned.body).toMatchObject({ count: 1, page: 1, projects: [{ name: 'Owned one', description: '' }] });
    expect((await flowFetch(base, '/projects/owned?count=101', { token })).status).toBe(400);
  });

  it('maps the run body to the run command and presents the execution in Flow statuses', async () => {
    const cats = (await flowFetch(base, '/pipelines', { token })).body as unknown as Array<{
      subcategories: Array<{ pipelines: Array<{ id: string; name: string }> }>;
    }>;
    const qc = cats
      .flatMap((c) => c.subcategories.flatMap((s) => s.pipelines))
      .find((p) => p.name === 'FASTQ Quality Control')!;
    const pipeline = await flowFetch(base, `/pipelines/${qc.id}`, { token });
    const version = (pipeline.body.versions as Array<{ id: string; nextflow_versions: string[] }>)[0]!;
    const schema = await flowFetch(base, `/pipelines/versions/${version.id}`, { token });
    expect(schema.body.schema).toMatchObject({
      inputs: [{ params: { samples: { type: 'csv', takes_samples: true } } }],
    });
    const samples = (await flowFetch(base, '/samples/search?name=wire_1', { token })).body.samples as Array<{
      id: string;
    }>;
    const body = (nextflow: string) =>
      JSON.stringify({
        params: {},
        data_params: {},
        csv_params: { samples: { rows: [{ sample: samples[0]!.id, values: {} }] } },
        nextflow_version: nextflow,
      });
    const json = { 'content-type': 'application/json' };
    const wrong = await flowFetch(base, `/pipelines/versions/${version.id}/run`, {
      method: 'POST',
      token,
      headers: json,
      body: body('21.10.0'),
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: { nextflow_version: [expect.any(String)] } } });
    const viewer = await addUser(suite.service, suite.admin, 'viewer');
    const forbidden = await flowFetch(base, `/pipelines/versions/${version.id}/run`, {
      method: 'POST',
      token: viewer.token,
      headers: json,
      body: body(version.nextflow_versions[0]!),
    });
    expect(forbidden).toMatchObject({ status: 403, body: { error: 'User cannot run pipelines' } });
    const started = await flowFetch(base, `/pipelines/versions/${version.id}/run`, {
      method: 'POST',
      token,
      headers: json,
      body: body(version.nextflow_versions[0]!),
    });
    expect(started.body).toMatchObject({ id: expect.stringMatching(/^\d+$/), status: '' });
    let execution = started.body;
    while (!['OK', 'ERROR', 'CANCELED'].includes(execution.status as string)) {
      await new Promise((w) => setTimeout(w, 200));
      execution = (await flowFetch(base, `/executions/${String(started.body.id)}`, { token })).body;
    }
    expect(execution.status).toBe('OK');
    const listed = await flowFetch(base, '/executions/search?status=OK&return_data=true', { token });
    const item = (
      listed.body.executions as Array<{ id: string; downstream_data: Array<{ id: string; filename: string }> }>
    )[0]!;
    expect(item.id).toBe(started.body.id);
    const output = item.downstream_data[0]!;
    const ok = await fetch(`${base}/downloads/${output.id}/${output.filename}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    for (const refused of [
      await fetch(`${base}/downloads/${output.id}/other-name.json`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${base}/downloads/${output.id}/${output.filename}`),
      await fetch(`${base}/downloads/${output.id}/${output.filename}`, {
        headers: { authorization: `Bearer ${viewer.token}` },
      }),
    ]) {
      expect(refused.status).toBe(404);
      expect(await refused.text()).toBe('');
    }
  });

  it('reads projects and data in Flow shapes', async () => {
    const project = await call(suite.service, 'POST', '/api/projects/', { token, body: { name: 'Searchable' } });
    const sample = (await flowFetch(base, '/samples/search?name=wire_1', { token })).body.samples as Array<{
      id: string;
    }>;
    await call(suite.service, 'POST', `/api/projects/${String(project.body.id)}/samples`, {
      token,
      body: { sample_ids: [Number(sample[0]!.id)] },
    });
    const search = await flowFetch(base, '/projects/search?count=100', { token });
    expect(search.body.projects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: String(project.body.id), name: 'Searchable', sample_count: 1 }),
      ]),
    );
    const detail = await flowFetch(base, `/projects/${String(project.body.id)}`, { token });
    expect(detail.body).toMatchObject({ name: 'Searchable', can_edit: true, owner: { username: 'admin' } });
    const samples = await flowFetch(base, `/projects/${String(project.body.id)}/samples`, { token });
    expect(samples.body).toMatchObject({ count: 1, samples: [{ name: 'wire_1' }] });
    const data = await flowFetch(base, '/data/search?count=5', { token });
    const first = (data.body.data as Array<{ id: string; filename: string }>)[0]!;
    expect(first.id).toMatch(/^\d+$/);
    expect((await flowFetch(base, `/data/${first.id}`, { token })).body).toMatchObject({
      id: first.id,
      filename: first.filename,
    });
    expect((await flowFetch(base, '/data/types', { token })).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ identifier: 'fastq' })]),
    );
  });

  it("answers the other reads: a project's executions, users, a file's contents, log offsets, sorted and filtered samples", async () => {
    const projects = (await flowFetch(base, '/projects/search?count=100', { token })).body.projects as Array<{
      id: string;
      name: string;
    }>;
    const project = projects.find((p) => p.name === 'Searchable')!;
    const runs = await flowFetch(base, `/projects/${project.id}/executions`, { token });
    expect(runs.body).toMatchObject({ count: 1, page: 1, executions: [{ status: 'OK' }] });
    const empty = projects.find((p) => p.name === 'Owned one')!;
    expect((await flowFetch(base, `/projects/${empty.id}/executions`, { token })).body).toMatchObject({ count: 0 });

    const users = await flowFetch(base, '/users/search?name=adm', { token });
    expect(users.body).toMatchObject({ count: 1, users: [{ id: expect.stringMatching(/^\d+$/), username: 'admin' }] });
    expect((await flowFetch(base, '/users/search?name=nobody-here', { token })).body).toMatchObject({ count: 0 });

    // A text file of several pages: its contents page by page, as uploaded.
    const { r1: big } = writePair(dir.path, 'pages', 200, 45);
    const bigUp = await uploadInChunks(base, '/upload', token, 'pages_R1.fastq', readFileSync(big), 20_000);
    const whole = readFileSync(big, 'utf8');
    expect(whole.length).toBeGreaterThan(20_000);
    const page0 = await flowFetch(base, `/data/${String(bigUp.body.id)}/contents`, { token });
    expect(page0.body).toEqual({ contents: whole.slice(0, 10_000), has_more: true });
    const last = Math.floor((whole.length - 1) / 10_000);
    const end = await flowFetch(base, `/data/${String(bigUp.body.id)}/contents?position=${last}`, { token });
    expect(end.body).toEqual({ contents: whole.slice(last * 10_000), has_more: false });
    const gz = await uploadInChunks(base, '/upload', token, 'pages.fastq.gz', gzipSync(readFileSync(big)), 50_000);
    expect((await flowFetch(base, `/data/${String(gz.body.id)}/contents`, { token })).status).toBe(400);

    const execution = (runs.body.executions as Array<{ id: string }>)[0]!;
    const full = await flowFetch(base, `/executions/${execution.id}`, { token });
    const log = String(full.body.log);
    expect(log.length).toBeGreaterThan(4);
    const tail = await flowFetch(base, `/executions/${execution.id}?log=4`, { token });
    expect(tail.body.log).toBe(Buffer.from(log).subarray(4).toString('utf8'));
    const picked = await flowFetch(base, `/executions/${execution.id}?include=status&include=log`, { token });
    expect(Object.keys(picked.body).sort()).toEqual(['id', 'log', 'status']);
    const without = await flowFetch(base, `/executions/${execution.id}?exclude=log`, { token });
    expect(without.body).not.toHaveProperty('log');
    expect(without.body).toHaveProperty('status', 'OK');
    expect((await flowFetch(base, `/executions/${execution.id}?include=log&exclude=status`, { token })).status).toBe(
      400,
    );

    // Sorted and filtered sample searches.
    const fields = { sample_name: 'aaa_first', sample_type: 'RNA', organism: 'Hs', is_last_sample: 'true' };
    const { r1: a1 } = writePair(dir.path, 'aaa', 10, 44);
    const made = await uploadInChunks(base, '/upload/sample', token, 'aaa_R1.fastq', readFileSync(a1), 5000, fields);
    expect(made.body.sample_id).toMatch(/^\d+$/);
    const byName = await flowFetch(base, '/samples/search?sort=name', { token });
    expect((byName.body.samples as Array<{ name: string }>).map((s) => s.name)).toEqual(['aaa_first', 'wire_1']);
    const byNameDesc = await flowFetch(base, '/samples/search?sort=-name', { token });
    expect((byNameDesc.body.samples as Array<{ name: string }>).map((s) => s.name)).toEqual(['wire_1', 'aaa_first']);
    expect((await flowFetch(base, '/samples/search?sort=size', { token })).status).toBe(400);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await flowFetch(base, `/samples/search?created_gt=${future}`, { token })).body).toMatchObject({ count: 0 });
    expect((await flowFetch(base, `/samples/search?created_lt=${future}&owned=true`, { token })).body).toMatchObject({
      count: 2,
    });
    const viewer = await flowToken(base, 'viewer', 'password-viewer');
    const theirs = await flowFetch(base, '/samples/search?owned=true', { token: viewer });
    expect(theirs.body).toMatchObject({ count: 0 });

    // The same sort and filters on the executions search.
    const mine = await flowFetch(base, `/executions/search?owned=true&sort=created&created_lt=${future}`, { token });
    expect(mine.body).toMatchObject({ count: 1, executions: [{ id: execution.id }] });
    expect((await flowFetch(base, `/executions/search?created_gt=${future}`, { token })).body).toMatchObject({
      count: 0,
    });
    expect((await flowFetch(base, '/executions/search?created_gt=yesterday', { token })).status).toBe(400);
  });
});
