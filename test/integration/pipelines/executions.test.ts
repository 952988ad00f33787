import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkSequence, collectUpdates, FIXTURE_MANIFESTS, startKit, wsClient, type Kit } from './pipeline-kit';
import { eventually, groupAlive, processesWith } from './proc-helpers';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { id: number; name: string; versions: Array<{ id: number; version: string }> };
type Exec = Record<string, unknown> & { id: number; status: string };

describe('executions of a worker pipeline: run, events, logs, outputs, cancel, priority, limits', () => {
  let kit: Kit;
  let steps: number; // Test Steps 2.0.0
  let stepsOld: number; // Test Steps 1.0.0
  let stepsPipeline: number;
  const cpus = availableParallelism();

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS);
    const list = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    const p = list.find((x) => x.name === 'Test Steps')!;
    stepsPipeline = p.id;
    stepsOld = p.versions.find((v) => v.version === '1.0.0')!.id;
    steps = p.versions.find((v) => v.version === '2.0.0')!.id;
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('runs end to end through REST: processes, exit codes, stderr as ERROR, outputs as data, progress 100', async () => {
    const created = await kit.run(kit.adminToken, steps, {
      name: 'rest run',
      parameters: { steps: 4 },
      metadata: { batch: 'B1' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'rest run',
      status: 'queued',
      pipeline: { name: 'Test Steps' },
      pipeline_version: { version: '2.0.0' },
      metadata: { batch: 'B1' },
      owner: 'admin',
      can_edit: true,
    });
    const done = await kit.waitFor(kit.adminToken, created.body.id as number, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    expect(done.parameters).toEqual({ steps: 4, delay_ms: 20, fail: false, mode: 'fast' });
    const procs = done.process_executions as Array<Record<string, unknown>>;
    expect(procs.map((p) => [p.name, p.status, p.exit_code, p.progress])).toEqual([
      ['prepare', 'completed', 0, 100],
      ['work', 'completed', 0, 100],
    ]);
    for (const p of procs) {
      expect(Date.parse(p.start_time as string)).toBeLessThanOrEqual(Date.parse(p.end_time as string));
      expect(p.resources).toHaveProperty('cpu_percent');
    }
    expect(typeof done.duration).toBe('number');
    const outputs = done.outputs as Array<{
      id: number;
      filename: string;
      size: number;
      data_type: string;
      path: string;
    }>;
    expect(outputs).toEqual([
      expect.objectContaining({ filename: 'summary.json', data_type: 'json', path: 'summary.json', size: 11 }),
    ]);
    const dl = await kit.service.api(`/api/data/${outputs[0]!.id}/download`, {
      headers: { authorization: `Bearer ${kit.adminToken}` },
    });
    expect(dl.status).toBe(200);
    expect(await dl.text()).toBe('{"steps":4}');
    // The same execution through the GraphQL query.
    const gql = await kit.api<{ data: { execution: Record<string, unknown> } }>('/api/graphql', kit.adminToken, {
      body: {
        query: `query ($id: ID!) { execution(id: $id) { id name status progress pipeline { name } pipelineVersion { version }
          processExecutions { process status exitCode resources { cpuPercent memoryGb } } outputs { filename size dataType path } } }`,
        variables: { id: String(done.id) },
      },
    });
    expect(gql.body.data.execution).toMatchObject({
      id: String(done.id),
      status: 'completed',
      progress: 100,
      pipelineVersion: { version: '2.0.0' },
      processExecutions: [
        { process: 'prepare', status: 'completed', exitCode: 0 },
        { process: 'work', status: 'completed', exitCode: 0 },
      ],
      outputs: [{ filename: 'summary.json', size: 11, dataType: 'json', path: 'summary.json' }],
    });
    const logs = done.logs as Array<{ process: string; level: string; message: string }>;
    expect(logs).toContainEqual(
      expect.objectContaining({ process: 'engine', level: 'ERROR', message: 'a note on stderr' }),
    );
    expect(logs.filter((l) => l.process === 'work').map((l) => l.message)).toEqual([
      'step 1 of 4',
      'step 2 of 4',
      'step 3 of 4',
      'step 4 of 4',
    ]);
  });

  it('pages logs after a cursor', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 6 } });
    const id = run.body.id as number;
    await kit.waitFor(kit.adminToken, id, ['completed']);
    const all = (
      await kit.api<{ items: Array<{ id: number }>; next: number; complete: boolean }>(
        `/api/executions/${id}/logs`,
        kit.adminToken,
      )
    ).body;
    expect(all.complete).toBe(true);
    const first = (
      await kit.api<{ items: Array<{ id: number }>; next: number; complete: boolean }>(
        `/api/executions/${id}/logs?limit=3`,
        kit.adminToken,
      )
    ).body;
    expect(first.items).toEqual(all.items.slice(0, 3));
    expect(first.complete).toBe(false);
    const rest = (
      await kit.api<{ items: Array<{ id: number }>; next: number }>(
        `/api/executions/${id}/logs?after=${first.next}`,
        kit.adminToken,
      )
    ).body;
    expect([...first.items, ...rest.items]).toEqual(all.items);
    expect((await kit.api(`/api/executions/${id}/logs?after=-1`, kit.adminToken)).status).toBe(400);
  });

  it('runs through GraphQL with a subscriber that sees every change in order, and a late subscriber gets the state', async () => {
    // A blocker holds every CPU so that the subscriber is attached before the run starts.
    const blocker = await kit.run(kit.adminToken, steps, {
      parameters: { steps: 4, delay_ms: 500 },
      resources: { cpus },
    });
    const mutation = await kit.api<{ data: { runPipeline: Record<string, unknown> } }>('/api/graphql', kit.adminToken, {
      body: {
        query: `mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id name status created pipeline { name } pipelineVersion { version } } }`,
        variables: {
          input: {
            pipelineVersionId: String(steps),
            name: 'gql run',
            samples: [],
            parameters: { steps: 5 },
            resources: { cpus },
          },
        },
      },
    });
    const run = mutation.body.data.runPipeline;
    expect(run).toMatchObject({
      name: 'gql run',
      status: 'queued',
      pipeline: { name: 'Test Steps' },
      pipelineVersion: { version: '2.0.0' },
      created: expect.any(String),
    });
    const client = wsClient(kit, kit.adminToken);
    const { done } = collectUpdates(client, Number(run.id));
    const updates = await done;
    expect(checkSequence(updates)).toEqual([]);
    expect(updates[0]).toMatchObject({ kind: 'SNAPSHOT', status: 'queued' });
    const statuses = updates.filter((u) => u.kind === 'STATUS').map((u) => u.status);
    expect(statuses).toEqual(['running', 'completed']);
    const work = updates
      .filter((u) => u.kind === 'PROCESS' && u.processExecutions[0]!.process === 'work')
      .map((u) => u.processExecutions[0]!);
    expect(work[0]!.status).toBe('running');
    expect(work.at(-1)).toMatchObject({ status: 'completed', progress: 100 });
    expect(work.map((w) => w.progress)).toEqual([...work.map((w) => w.progress)].sort((a, b) => a - b));
    // Every log entry arrives, in the order the service stored them.
    const rest = (
      await kit.api<{ items: Array<{ message: string; process: string }> }>(
        `/api/executions/${run.id}/logs`,
        kit.adminToken,
      )
    ).body.items;
    const streamed = updates.flatMap((u) => u.logs);
    expect(streamed.map((l) => `${l.process}:${l.message}`)).toEqual(rest.map((l) => `${l.process}:${l.message}`));
    // Each step of the execution's progress rides on the update of the process that caused it.
    const seen = [...new Set(updates.map((u) => u.progress))];
    expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(updates.at(-1)).toMatchObject({ kind: 'STATUS', status: 'completed', progress: 100 });

    const late = await collectUpdates(client, Number(run.id)).done;
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ kind: 'SNAPSHOT', status: 'completed', progress: 100 });
    expect(late[0]!.processExecutions.map((p) => p.process)).toEqual(['prepare', 'work']);
    expect(late[0]!.logs.length).toBe(rest.length);
    await kit.waitFor(kit.adminToken, blocker.body.id as number, ['completed']);
    await client.dispose();
  });

  it('refuses subscribers without a token or without permission', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1 } });
    await kit.waitFor(kit.adminToken, run.body.id as number, ['completed']);
    const other = await kit.createUser('outsider');
    const client = wsClient(kit, other.token);
    await expect(collectUpdates(client, run.body.id as number).done).rejects.toThrow(/NOT_FOUND/);
    await client.dispose();
    const anonymous = wsClient(kit, 'not-a-token');
    await expect(collectUpdates(anonymous, run.body.id as number).done).rejects.toBeTruthy();
    await anonymous.dispose();
    // GraphQL errors carry the service code.
    const res = await kit.api<{ errors: Array<{ extensions: { code: string } }> }>('/api/graphql', other.token, {
      body: { query: 'mutation { cancelExecution(id: "999999") { id } }' },
    });
    expect(res.body.errors[0]!.extensions.code).toBe('NOT_FOUND');
  });

  it('cancels a running execution: the whole process tree is gone and the status is cancelled', async () => {
    const marker = 424242 + Math.floor(Math.random() * 1000);
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1000, delay_ms: 50, marker } });
    const id = run.body.id as number;
    expect(await eventually(() => processesWith(String(marker)).length >= 2)).toBe(true);
    const groups = new Set(processesWith(String(marker)).map((p) => p.pgrp));
    expect(groups.size).toBe(1);
    const pgrp = [...groups][0]!;
    expect(groupAlive(pgrp).length).toBeGreaterThanOrEqual(3); // the worker, sh and its sleep, the node child
    // Resources are sampled from /proc for the run's process group while it runs.
    let sampled: { cpu_percent: number | null; memory_gb: number | null } | undefined;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(sampled?.memory_gb && sampled.memory_gb > 0)) {
      const detail = await kit.api<{ process_executions: Array<{ name: string; resources: typeof sampled }> }>(
        `/api/executions/${id}`,
        kit.adminToken,
      );
      sampled = detail.body.process_executions.find((p) => p.name === 'work')?.resources;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sampled!.memory_gb).toBeGreaterThan(0.01);
    expect(sampled!.cpu_percent).toBeGreaterThanOrEqual(0);
    const cancelled = await kit.api<Exec>(`/api/executions/${id}/cancel/`, kit.adminToken, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', error: 'Cancelled by admin' });
    expect(groupAlive(pgrp)).toEqual([]);
    expect(processesWith(String(marker))).toEqual([]);
    const work = (cancelled.body.process_executions as Array<{ name: string; status: string }>).find(
      (p) => p.name === 'work',
    )!;
    expect(work.status).toBe('cancelled');
    const again = await kit.api(`/api/executions/${id}/cancel`, kit.adminToken, { method: 'POST' });
    expect(again.body).toMatchObject({ code: 'NOT_CANCELLABLE', status: 409 });
  });

  it('starts queued executions by priority, then age, within the machine’s CPUs', async () => {
    const blocker = await kit.run(kit.adminToken, steps, {
      parameters: { steps: 1000, delay_ms: 50 },
      resources: { cpus },
    });
    await kit.waitFor(kit.adminToken, blocker.body.id as number, ['running']);
    const low = await kit.run(kit.adminToken, steps, {
      name: 'low',
      priority: 'low',
      parameters: { steps: 1 },
      resources: { cpus },
    });
    const normal1 = await kit.run(kit.adminToken, steps, {
      name: 'normal-1',
      parameters: { steps: 1 },
      resources: { cpus },
    });
    const high = await kit.run(kit.adminToken, steps, {
      name: 'high',
      priority: 'high',
      parameters: { steps: 1 },
      resources: { cpus },
    });
    const normal2 = await kit.run(kit.adminToken, steps, {
      name: 'normal-2',
      priority: 'normal',
      parameters: { steps: 1 },
      resources: { cpus },
    });
    const ids = [low, normal1, high, normal2].map((r) => r.body.id as number);
    for (const id of ids)
      expect((await kit.api<Exec>(`/api/executions/${id}`, kit.adminToken)).body.status).toBe('queued');
    await kit.api(`/api/executions/${blocker.body.id}/cancel`, kit.adminToken, { method: 'POST' });
    const finished = await Promise.all(ids.map((id) => kit.waitFor(kit.adminToken, id, ['completed'])));
    const order = [...finished]
      .sort((a, b) => Date.parse(a.started as string) - Date.parse(b.started as string))
      .map((e) => e.name);
    expect(order).toEqual(['high', 'normal-1', 'normal-2', 'low']);
    for (let i = 1; i < finished.length; i++) {
      const [a, b] = [finished.find((e) => e.name === order[i - 1])!, finished.find((e) => e.name === order[i])!];
      expect(Date.parse(b.started as string)).toBeGreaterThanOrEqual(Date.parse(a.finished as string));
    }
  });

  it('enforces the time limit: the run is stopped and fails with a clear error', async () => {
    const run = await kit.run(kit.adminToken, steps, {
      parameters: { steps: 1000, delay_ms: 50 },
      resources: { time_limit: '1s' },
    });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['failed', 'completed']);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/Time limit of 1 s exceeded/);
    expect(done.resources).toMatchObject({ time_limit: 1 });
  });

  it('passes test_mode to the engine as a small subsample', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1 }, test_mode: true });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed']);
    expect(done.test_mode).toBe(true);
    expect((done.logs as Array<{ message: string }>).some((l) => l.message.includes('maxReads: 10000'))).toBe(true);
  });

  it('records a failing run: failed status, the exit code and the error', async () => {
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1, fail: true } });
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['failed', 'completed']);
    expect(done.status).toBe('failed');
    expect(done.error).toBe('The pipeline process exited with code 3');
    expect(
      (done.process_executions as Array<{ name: string; status: string; exit_code: number }>).find(
        (p) => p.name === 'work',
      ),
    ).toMatchObject({ status: 'failed', exit_code: 3 });
    expect(done.outputs).toEqual([]);
  });

  it('runs by pipeline id: the latest version, or the one named', async () => {
    const latest = await kit.api<Exec>(`/api/pipelines/${stepsPipeline}/run`, kit.adminToken, {
      body: { parameters: { steps: 1 } },
    });
    expect(latest.status).toBe(201);
    expect(latest.body.pipeline_version).toEqual({ id: steps, version: '2.0.0' });
    const named = await kit.api<Exec>(`/api/pipelines/${stepsPipeline}/run`, kit.adminToken, {
      body: { version: '1.0.0', parameters: { steps: 1 } },
    });
    expect(named.body.pipeline_version).toEqual({ id: stepsOld, version: '1.0.0' });
    const byName = await kit.api<Exec>(`/api/pipelines/${encodeURIComponent('test steps')}/run`, kit.adminToken, {
      body: { parameters: { steps: 1 } },
    });
    expect(byName.body.pipeline_version).toEqual({ id: steps, version: '2.0.0' });
    expect((await kit.api('/api/pipelines/No%20Such%20Pipeline/run', kit.adminToken, { body: {} })).body).toMatchObject(
      { code: 'NOT_FOUND' },
    );
    await kit.waitFor(kit.adminToken, byName.body.id, ['completed']);
    const unknown = await kit.api(`/api/pipelines/${stepsPipeline}/run`, kit.adminToken, { body: { version: '9.9' } });
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { version: expect.any(String) } });
    await kit.waitFor(kit.adminToken, latest.body.id, ['completed']);
    await kit.waitFor(kit.adminToken, named.body.id, ['completed']);
  });

  it('lists executions with filters and keeps them private until shared', async () => {
    const all = await kit.api<{ count: number; items: Exec[] }>('/api/executions/?per_page=100', kit.adminToken);
    expect(all.body.count).toBeGreaterThan(5);
    const failed = await kit.api<{ count: number; items: Exec[] }>('/api/executions/?status=failed', kit.adminToken);
    expect(failed.body.items.every((e) => e.status === 'failed')).toBe(true);
    const byName = await kit.api<{ count: number }>('/api/executions/?pipeline=test%20steps', kit.adminToken);
    const byId = await kit.api<{ count: number }>(`/api/executions/?pipeline=${stepsPipeline}`, kit.adminToken);
    expect(byName.body.count).toBe(all.body.count);
    expect(byId.body.count).toBe(all.body.count);
    expect((await kit.api('/api/executions/?status=sleeping', kit.adminToken)).status).toBe(400);
    const stranger = await kit.createUser('stranger');
    expect((await kit.api<{ count: number }>('/api/executions/', stranger.token)).body.count).toBe(0);
    const id = all.body.items[0]!.id;
    expect((await kit.api(`/api/executions/${id}`, stranger.token)).status).toBe(404);
    expect((await kit.api(`/api/executions/${id}/cancel`, stranger.token, { method: 'POST' })).status).toBe(404);
  });
});
