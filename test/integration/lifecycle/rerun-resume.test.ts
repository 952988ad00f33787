import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from '../pipelines/pipeline-kit';
import { LIFECYCLE_MANIFESTS } from './lifecycle-fixtures';

// Real Snakemake and worker processes on a shared two-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Exec = Record<string, unknown> & {
  id: number;
  status: string;
  rerun_of: number | null;
  resumes: number;
  rerun: { allowed: boolean; reason: string | null };
  resume: { allowed: boolean; reason: string | null };
};
type Pipeline = { id: number; name: string; versions: Array<{ id: number; version: string }> };

const READS = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `@${tag}${i}\nACGTACGTACGTTTGA\n+\nIIIIIIIIIIIIIIII\n`).join('');

describe('re-run and resume over REST and GraphQL', () => {
  let kit: Kit;
  let steps: number;
  let resumable: number;
  let alice: { id: number; token: string };
  let viewer: { id: number; token: string };
  let noRun: { id: number; token: string };
  let sample: number;
  let reads: number;
  const scratch = tempDir('laneway-resume-');

  const post = (path: string, token: string, body: unknown = {}) => kit.api<Exec>(path, token, { body });
  const gql = (token: string, query: string, variables: Record<string, unknown>) =>
    kit.api<{
      data: Record<string, Record<string, unknown>> | null;
      errors?: Array<{ message: string; extensions: Record<string, unknown> }>;
    }>('/api/graphql', token, { body: { query, variables } });

  beforeAll(async () => {
    kit = await startKit(LIFECYCLE_MANIFESTS);
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    steps = list.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!.id;
    resumable = list.find((p) => p.name === 'Test Resumable')!.versions[0]!.id;
    alice = await kit.createUser('alice');
    viewer = await kit.createUser('viewer');
    noRun = await kit.createUser('norun', false);
    reads = await kit.upload(alice.token, 'S1.fastq', READS(20, 's'));
    sample = await kit.createSample(alice.token, 'S1', reads);
    // alice's group, in which viewer may only view.
    await kit.api('/api/groups/', alice.token, { body: { name: 'Lab' } });
    await kit.api('/api/groups/lab/invite/', alice.token, {
      body: { emails: ['viewer@lab.example', 'norun@lab.example'], permission: 'view' },
    });
    await kit.api('/api/groups/lab/accept/', viewer.token, { body: {} });
    await kit.api('/api/groups/lab/accept/', noRun.token, { body: {} });
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it('re-runs with the same version, samples, parameters, resources, priority and metadata', async () => {
    const first = await kit.run(alice.token, steps, {
      name: 'nightly',
      samples: [sample],
      parameters: { steps: 3, mode: 'slow', label: 'abc' },
      metadata: { batch: 'B7' },
      priority: 'low',
      resources: { cpus: 1, memory: '512M', time_limit: '2h' },
    });
    expect(first.status).toBe(201);
    const done = await kit.waitFor(alice.token, first.body.id as number, ['completed']);
    const again = await post(`/api/executions/${done.id as number}/rerun`, alice.token);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(done.id);
    expect(again.body).toMatchObject({
      name: 'nightly',
      rerun_of: done.id,
      pipeline_version: { id: steps, version: '2.0.0' },
      samples: [{ id: sample, name: 'S1' }],
      parameters: done.parameters,
      metadata: { batch: 'B7' },
      priority: 'low',
      resources: { cpus: 1, memory_gb: 0.5, time_limit: 7200 },
      owner: 'alice',
    });
    const rerun = await kit.waitFor(alice.token, again.body.id, ['completed', 'failed']);
    expect(rerun.status).toBe('completed');
    // The re-run is in the audit log as a run that names the one it repeats.
    const audit = await kit.api<{
      items: Array<{ action: string; resource: { id: number }; details: Record<string, unknown> }>;
    }>(`/api/audit?action=ran&resource_id=${again.body.id}`, kit.adminToken);
    expect(audit.body.items[0]!.details).toMatchObject({ rerun_of: done.id });
  });

  it('re-runs a failed execution with changed parameters (merged) and resources', async () => {
    const failed = await kit.run(alice.token, steps, { parameters: { steps: 2, fail: true, mode: 'slow' } });
    const f = await kit.waitFor(alice.token, failed.body.id as number, ['failed']);
    expect((f as Exec).rerun).toEqual({ allowed: true, reason: null });
    const fixed = await post(`/api/executions/${f.id as number}/rerun`, alice.token, {
      name: 'fixed',
      parameters: { fail: false },
      resources: { cpus: 1 },
      priority: 'high',
    });
    expect(fixed.status).toBe(201);
    expect(fixed.body.parameters).toMatchObject({ steps: 2, fail: false, mode: 'slow' });
    expect(fixed.body).toMatchObject({ name: 'fixed', priority: 'high', rerun_of: f.id });
    expect((await kit.waitFor(alice.token, fixed.body.id, ['completed', 'failed'])).status).toBe('completed');
  });

  it('applies the run checks and the policy to re-runs', async () => {
    const base = await kit.run(alice.token, steps, { samples: [sample], parameters: { steps: 1 } });
    const id = base.body.id as number;
    await kit.waitFor(alice.token, id, ['completed']);
    const bad = await post(`/api/executions/${id}/rerun`, alice.token, { parameters: { steps: 0, mode: 'warp' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: { steps: expect.any(String), mode: expect.any(String) },
    });
    for (const body of [
      { upstream_execution: 1 },
      { version: '1.0.0' },
      { samples: 'all' },
      { resources: { gpus: 2 } },
    ]) {
      const r = await post(`/api/executions/${id}/rerun`, alice.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code, JSON.stringify(body)).toBe('VALIDATION_ERROR');
    }
    expect((await post(`/api/executions/${id}/rerun`, alice.token, { resources: { cpus: 4096 } })).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { 'resources.cpus': expect.stringContaining('CPUs') },
    });
    // Invisible: 404 as if it did not exist; visible but not allowed to run: 403.
    expect((await post(`/api/executions/${id}/rerun`, viewer.token)).status).toBe(404);
    expect((await post(`/api/executions/999999/rerun`, alice.token)).body).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    await kit.api(`/api/executions/${id}/share/`, alice.token, { body: { group: 'lab', permission: 'view' } });
    await kit.api(`/api/samples/${sample}/share/`, alice.token, { body: { group: 'lab', permission: 'view' } });
    // Running on a sample needs its reads too (shared data is shared explicitly).
    await kit.api(`/api/data/${reads}/share/`, alice.token, { body: { group: 'lab', permission: 'view' } });
    const refused = await post(`/api/executions/${id}/rerun`, noRun.token);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 });
    expect((await kit.api<Exec>(`/api/executions/${id}`, noRun.token)).body.rerun).toEqual({
      allowed: false,
      reason: 'Your account may not run pipelines',
    });
    // A viewer of a shared execution re-runs it as their own.
    const theirs = await post(`/api/executions/${id}/rerun`, viewer.token);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body).toMatchObject({ owner: 'viewer', rerun_of: id, can_edit: true });
    await kit.waitFor(viewer.token, theirs.body.id, ['completed', 'failed']);
    // Samples deleted since: INVALID_SAMPLES naming them, unless the re-run names others.
    const gone = await kit.createSample(alice.token, 'Gone', await kit.upload(alice.token, 'G.fastq', READS(4, 'g')));
    const withGone = await kit.run(alice.token, steps, { samples: [gone], parameters: { steps: 1 } });
    await kit.waitFor(alice.token, withGone.body.id as number, ['completed']);
    expect((await kit.api(`/api/samples/${gone}`, alice.token, { method: 'DELETE' })).status).toBe(204);
    const orphan = await post(`/api/executions/${withGone.body.id as number}/rerun`, alice.token);
    expect(orphan.status).toBe(400);
    expect(orphan.body).toMatchObject({ code: 'INVALID_SAMPLES', invalid_samples: [{ sample_id: gone }] });
    const moved = await post(`/api/executions/${withGone.body.id as number}/rerun`, alice.token, { samples: [sample] });
    expect(moved.status).toBe(201);
    await kit.waitFor(alice.token, moved.body.id, ['completed', 'failed']);
  });

  it('refuses to resume with 409 NOT_RESUMABLE and the reason, which the execution body states first', async () => {
    const expectRefusal = async (id: number, reason: RegExp, token = alice.token) => {
      const before = (await kit.api<Exec>(`/api/executions/${id}`, token)).body;
      expect(before.resume.allowed).toBe(false);
      expect(before.resume.reason).toMatch(reason);
      const r = await post(`/api/executions/${id}/resume`, token);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'NOT_RESUMABLE', status: 409 });
      expect(r.body.error).toMatch(reason);
    };
    // Built-in engines start over.
    const builtin = await kit.run(alice.token, steps, { parameters: { steps: 1, fail: true } });
    await kit.waitFor(alice.token, builtin.body.id as number, ['failed']);
    await expectRefusal(builtin.body.id as number, /built-in engine/);
    // Still running.
    const slow = await kit.run(alice.token, steps, { parameters: { steps: 1000, delay_ms: 500 } });
    await kit.waitFor(alice.token, slow.body.id as number, ['running']);
    await expectRefusal(slow.body.id as number, /still running/);
    // Cancelled: no work folder is kept.
    await post(`/api/executions/${slow.body.id as number}/cancel/`, alice.token);
    await expectRefusal(slow.body.id as number, /cancelled/);
    // Completed: nothing to resume.
    const ok = await kit.run(alice.token, steps, { parameters: { steps: 1 } });
    await kit.waitFor(alice.token, ok.body.id as number, ['completed']);
    await expectRefusal(ok.body.id as number, /completed/);
    // A Snakemake run whose work folder was removed.
    const gate = join(scratch.path, 'never');
    const sm = await kit.run(alice.token, resumable, {
      samples: [sample],
      parameters: { counter: join(scratch.path, 'c0'), gate },
    });
    await kit.waitFor(alice.token, sm.body.id as number, ['failed']);
    expect((await kit.api<Exec>(`/api/executions/${sm.body.id as number}`, alice.token)).body.resume).toEqual({
      allowed: true,
      reason: null,
    });
    rmSync(join(kit.service.dataDir, 'executions', String(sm.body.id)), { recursive: true });
    await expectRefusal(sm.body.id as number, /work folder is gone/);
    // Policy: invisible is 404; view-only is 403; unknown is 404.
    expect((await post(`/api/executions/${sm.body.id as number}/resume`, viewer.token)).status).toBe(404);
    await kit.api(`/api/executions/${sm.body.id as number}/share/`, alice.token, {
      body: { group: 'lab', permission: 'view' },
    });
    expect((await post(`/api/executions/${sm.body.id as number}/resume`, viewer.token)).body).toMatchObject({
      code: 'PERMISSION_DENIED',
      status: 403,
    });
    expect((await post('/api/executions/999999/resume', alice.token)).status).toBe(404);
  });

  it('resumes a failed Snakemake run on its kept work folder: finished steps do not run again', async () => {
    const counter = join(scratch.path, 'counter.txt');
    const gate = join(scratch.path, 'gate');
    const run = await kit.run(alice.token, resumable, { samples: [sample], parameters: { counter, gate } });
    expect(run.status).toBe(201);
    const id = run.body.id as number;
    const failed = (await kit.waitFor(alice.token, id, ['completed', 'failed'])) as Exec;
    expect(failed.status).toBe('failed');
    expect(readFileSync(counter, 'utf8')).toBe('S1\n');
    expect(failed.resume).toEqual({ allowed: true, reason: null });
    writeFileSync(gate, 'open');
    const resumed = await post(`/api/executions/${id}/resume`, alice.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id, status: 'queued', error: null, resumes: 1 });
    const done = (await kit.waitFor(alice.token, id, ['completed', 'failed'])) as Exec;
    expect(done.status, JSON.stringify(done.logs).slice(-2000)).toBe('completed');
    // Step one ran once: the resumed run went on from where the failed one stopped.
    expect(readFileSync(counter, 'utf8')).toBe('S1\n');
    expect(done.outputs).toEqual([expect.objectContaining({ filename: 'S1.done.txt', sample_id: sample })]);
    const messages = (done.logs as Array<{ message: string }>).map((l) => l.message);
    expect(messages).toContain('Resumed by alice on its kept work folder (Snakemake --rerun-incomplete)');
    expect(existsSync(join(kit.service.dataDir, 'executions', String(id)))).toBe(false);
    const twice = await post(`/api/executions/${id}/resume`, alice.token);
    expect(twice.body).toMatchObject({ code: 'NOT_RESUMABLE' });
    const audit = await kit.api<{ items: Array<{ user: string; details: Record<string, unknown> }> }>(
      `/api/audit?action=resumed&resource_id=${id}`,
      kit.adminToken,
    );
    expect(audit.body.items).toEqual([expect.objectContaining({ user: 'alice', details: { resumes: 1 } })]);
  });

  it('offers both through GraphQL mutations with the service codes in extensions', async () => {
    const counter = join(scratch.path, 'gql-counter.txt');
    const gate = join(scratch.path, 'gql-gate');
    const run = await kit.run(alice.token, resumable, { samples: [sample], parameters: { counter, gate } });
    const id = run.body.id as number;
    await kit.waitFor(alice.token, id, ['failed']);
    const query = `query ($id: ID!) { execution(id: $id) { rerunOf resumes rerun { allowed reason } resume { allowed reason } } }`;
    expect((await gql(alice.token, query, { id: String(id) })).body.data!.execution).toEqual({
      rerunOf: null,
      resumes: 0,
      rerun: { allowed: true, reason: null },
      resume: { allowed: true, reason: null },
    });
    writeFileSync(gate, 'open');
    const resumed = await gql(alice.token, 'mutation ($id: ID!) { resumeExecution(id: $id) { id status resumes } }', {
      id: String(id),
    });
    expect(resumed.body.data!.resumeExecution).toEqual({ id: String(id), status: 'queued', resumes: 1 });
    await kit.waitFor(alice.token, id, ['completed']);
    expect(readFileSync(counter, 'utf8')).toBe('S1\n');
    const rerun = await gql(
      alice.token,
      'mutation ($id: ID!, $input: RerunExecutionInput) { rerunExecution(id: $id, input: $input) { id name rerunOf parameters } }',
      { id: String(id), input: { name: 'again', parameters: { gate: join(scratch.path, 'never') } } },
    );
    expect(rerun.body.data!.rerunExecution).toMatchObject({
      name: 'again',
      rerunOf: String(id),
      parameters: { counter, gate: join(scratch.path, 'never') },
    });
    await kit.waitFor(alice.token, Number(rerun.body.data!.rerunExecution!.id), ['failed']);
    const refused = await gql(alice.token, 'mutation ($id: ID!) { resumeExecution(id: $id) { id } }', {
      id: String(id),
    });
    expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_RESUMABLE', status: 409 });
    const denied = await gql(noRun.token, 'mutation ($id: ID!) { rerunExecution(id: $id) { id } }', { id: String(id) });
    expect(denied.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (
      await kit.api<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
        '/api/openapi.json',
        kit.adminToken,
      )
    ).body;
    expect(Object.keys(doc.paths['/api/executions/{id}/rerun']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/executions/{id}/resume']!)).toEqual(['post']);
    expect(doc.paths['/api/executions/{id}/rerun']!.post!.responses).toHaveProperty('201');
  });
});
