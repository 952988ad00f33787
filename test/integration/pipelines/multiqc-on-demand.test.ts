/**
 * MultiQC on demand over real HTTP: a project's and a lane's samples run through the QC
 * pipeline, then `POST /api/projects/{id}/multiqc` and `POST /api/lanes/{id}/multiqc` build a
 * report with Debian's multiqc, stored as a `multiqc` data record the caller downloads. Only
 * outputs the caller may view go in (derived-data policy), the newest run per pipeline and
 * sample counts, and the routes are in the OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; is_latest: boolean }> };
type Output = { id: number; filename: string; data_type: string; sample_id: number | null };
type Report = {
  data: { id: number; data_type: string; source: string; filename: string; owner: string | null };
  download_url: string;
  samples: Array<{ id: number; name: string }>;
  executions: number[];
  inputs: number;
};

describe('MultiQC on demand per project and per lane', () => {
  let kit: Kit;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let carol: { id: number; token: string };
  let qc: number;
  let slug: string;
  let project: number;
  let s1: number;
  let s2: number;
  let firstQc: number;
  const scratch = tempDir('laneway-multiqc-demand-');

  const download = async (path: string, token: string) => {
    const res = await kit.service.api(path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };
  const runQc = async (token: string, samples: number[]) => {
    const run = await kit.run(token, qc, { samples });
    expect(run.status).toBe(201);
    const done = await kit.waitFor(token, run.body.id as number, ['completed', 'failed'], 150_000);
    expect(done.status).toBe('completed');
    return done as { id: number; outputs: Output[] };
  };

  beforeAll(async () => {
    kit = await startKit();
    alice = await kit.createUser('alice');
    bob = await kit.createUser('bob');
    carol = await kit.createUser('carol');
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    qc = list.find((p) => p.name === 'FASTQ Quality Control')!.versions.find((v) => v.is_latest)!.id;
    slug = (await kit.api<{ slug: string }>('/api/groups/', alice.token, { body: { name: 'Bench' } })).body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, alice.token, {
      body: { emails: ['bob@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, bob.token, { method: 'POST' })).status).toBe(200);
    s1 = await kit.createSample(
      alice.token,
      'liver1',
      await kit.upload(alice.token, 'liver1_R1.fastq', fastqText({ reads: 300, length: 80, seed: 31 })),
      await kit.upload(alice.token, 'liver1_R2.fastq', fastqText({ reads: 300, length: 80, seed: 32 })),
    );
    s2 = await kit.createSample(
      alice.token,
      'liver2',
      await kit.upload(alice.token, 'liver2_R1.fastq', fastqText({ reads: 450, length: 80, seed: 33 })),
    );
    const created = await kit.api<{ id: number }>('/api/projects/', alice.token, {
      body: { name: 'Liver study', sample_ids: [s1, s2] },
    });
    expect(created.status).toBe(201);
    project = created.body.id;
    firstQc = (await runQc(alice.token, [s1, s2])).id;
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it("builds a project's report from its samples' QC outputs, stored as a multiqc data record", async () => {
    const r = await kit.api<Report>(`/api/projects/${project}/multiqc`, alice.token, { body: {} });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      data: { data_type: 'multiqc', source: 'report', filename: `multiqc_project_${project}.html`, owner: 'alice' },
      download_url: `/api/data/${r.body.data.id}/download`,
      executions: [firstQc],
      inputs: 2,
    });
    expect(r.body.samples.map((s) => s.name).sort()).toEqual(['liver1', 'liver2']);
    const html = await download(r.body.download_url, alice.token);
    expect(html.status).toBe(200);
    expect(html.text).toContain('Project Liver study');
    expect(html.text).toContain('fastp');
    expect(html.text).toContain('liver1');
    expect(html.text).toContain('liver2');
    // A data record like any other: listed with its type, and in the audit log as created.
    const record = await kit.api<{ data_type: string; source: string }>(`/api/data/${r.body.data.id}`, alice.token);
    expect(record.body).toMatchObject({ data_type: 'multiqc', source: 'report' });
    const audit = await kit.api<{ items: Array<{ action: string; details: Record<string, unknown> }> }>(
      `/api/audit?resource_kind=data&resource_id=${r.body.data.id}`,
      kit.adminToken,
    );
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'created', details: { multiqc: { project }, inputs: expect.any(Array) } }),
      ]),
    );
    // Others cannot download it.
    expect((await download(r.body.download_url, bob.token)).status).toBe(404);
  });

  it('takes the newest completed run per pipeline and sample, and honours a title', async () => {
    const again = await runQc(alice.token, [s2]);
    const r = await kit.api<Report>(`/api/projects/${project}/multiqc`, alice.token, {
      body: { title: 'Liver QC, second pass' },
    });
    expect(r.status).toBe(201);
    expect(r.body.executions).toEqual([firstQc, again.id]);
    // liver1 from the first run, liver2 only from the re-run: still one file per sample.
    expect(r.body.inputs).toBe(2);
    expect((await download(r.body.download_url, alice.token)).text).toContain('Liver QC, second pass');
  });

  it('uses only outputs the caller may view: sharing the project and samples does not share outputs', async () => {
    await kit.api(`/api/projects/${project}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    // Carol is in no group: the project does not exist for her.
    const none = await kit.api(`/api/projects/${project}/multiqc`, carol.token, { body: {} });
    expect(none).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', status: 404 } });
    // Bob sees the project but neither the samples nor their outputs: nothing to report.
    const empty = await kit.api<{ code: string; error: string }>(`/api/projects/${project}/multiqc`, bob.token, {
      body: {},
    });
    expect(empty.status).toBe(409);
    expect(empty.body).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(empty.body.error).toMatch(/that you may view/);
    // Samples shared, outputs not: still nothing.
    for (const s of [s1, s2])
      await kit.api(`/api/samples/${s}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    expect((await kit.api(`/api/projects/${project}/multiqc`, bob.token, { body: {} })).status).toBe(409);
    // One output shared: exactly that one goes in, and the report is Bob's.
    const outputs = (await kit.api<{ outputs: Output[] }>(`/api/executions/${firstQc}`, alice.token)).body.outputs;
    const liver1 = outputs.find((o) => o.filename === 'liver1.fastp.json')!;
    await kit.api(`/api/data/${liver1.id}/share/`, alice.token, { body: { group: slug, permission: 'view' } });
    const r = await kit.api<Report>(`/api/projects/${project}/multiqc`, bob.token, { body: {} });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ inputs: 1, samples: [{ id: s1, name: 'liver1' }], executions: [firstQc] });
    expect(r.body.data.owner).toBe('bob');
    const html = (await download(r.body.download_url, bob.token)).text;
    expect(html).toContain('liver1');
    expect(html).not.toContain('liver2');
  });

  it('answers bad requests with the error body', async () => {
    const unknown = await kit.api(`/api/projects/999999/multiqc`, alice.token, { body: {} });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const extra = await kit.api(`/api/projects/${project}/multiqc`, alice.token, { body: { colour: 'blue' } });
    expect(extra).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', status: 400 } });
    const badId = await kit.api(`/api/lanes/abc/multiqc`, alice.token, { body: {} });
    expect(badId).toMatchObject({ status: 400, body: { status: 400 } });
    const group = await kit.api(`/api/projects/${project}/multiqc`, carol.token, {
      body: { group_owner: slug },
    });
    expect(group.status).toBe(404);
  });

  it("builds a lane's report from the QC of its demultiplexed samples", async () => {
    const gen = generateLane({
      dir: scratch.path,
      reads: 900,
      samples: 3,
      kind: 'inline',
      layout: 'NNNXXXXXXNN',
      readLength: 60,
      seed: 9,
    });
    const rows = gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Total RNA`);
    const form = new FormData();
    form.append('name', 'Run 7 lane 2');
    form.append('layout', 'NNNXXXXXXNN');
    form.append('annotation', new Blob([`Sample Name,Barcode,Organism,Category\n${rows.join('\n')}\n`]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane.fastq');
    const posted = await kit.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    const laneBody = (await posted.json()) as { id: number };
    expect(posted.status).toBe(202);
    let lane: { status: string; samples: Array<{ sample_id: number | null; name: string }> } | undefined;
    for (let i = 0; i < 600; i++) {
      lane = (await kit.api<NonNullable<typeof lane>>(`/api/lanes/${laneBody.id}`, alice.token)).body;
      if (lane.status !== 'demultiplexing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lane!.status).toBe('complete');
    const ids = lane!.samples.map((s) => s.sample_id!);
    // Before any QC there is nothing MultiQC reads.
    expect((await kit.api(`/api/lanes/${laneBody.id}/multiqc`, alice.token, { body: {} })).status).toBe(409);
    const done = await runQc(alice.token, ids);
    const r = await kit.api<Report>(`/api/lanes/${laneBody.id}/multiqc`, alice.token, { body: {} });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ executions: [done.id], inputs: 3, data: { data_type: 'multiqc' } });
    expect(r.body.samples.map((s) => s.name).sort()).toEqual(['S01', 'S02', 'S03']);
    const html = (await download(r.body.download_url, alice.token)).text;
    expect(html).toContain('Lane Run 7 lane 2');
    for (const s of ['S01', 'S02', 'S03']) expect(html).toContain(s);
    // Lanes are seen by their owner and group: Bob (not in a group owning it) gets 404.
    expect((await kit.api(`/api/lanes/${laneBody.id}/multiqc`, bob.token, { body: {} })).status).toBe(404);
  });

  it('builds two reports at once at most: a third request meanwhile is told to retry', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => kit.api<{ code?: string }>(`/api/projects/${project}/multiqc`, alice.token, { body: {} })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429]);
    expect(answers.find((a) => a.status === 429)!.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // Once they are done, the next one is built.
    expect((await kit.api(`/api/projects/${project}/multiqc`, alice.token, { body: {} })).status).toBe(201);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (
      await kit.api<{ paths: Record<string, Record<string, { operationId: string }>> }>(
        '/api/openapi.json',
        alice.token,
      )
    ).body;
    expect(doc.paths['/api/projects/{id}/multiqc']?.post?.operationId).toBe('buildProjectMultiqc');
    expect(doc.paths['/api/lanes/{id}/multiqc']?.post?.operationId).toBe('buildLaneMultiqc');
  });
});
