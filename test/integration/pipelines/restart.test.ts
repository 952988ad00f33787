import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../helpers/cli';
import { jsonCall } from '../../helpers/json-call';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { FIXTURE_MANIFESTS } from './pipeline-kit';
import { eventually, groupAlive, processesWith } from './proc-helpers';

// Real engines on a shared two-core machine: allow for slow runs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Exec = {
  id: number;
  status: string;
  error: string | null;
  process_executions: Array<{ name: string; status: string }>;
};

const call = jsonCall;

describe('a service restart after a crash', () => {
  const data = tempDir('laneway-restart-');
  let restarted: TestService | null = null;
  afterAll(async () => {
    await restarted?.stop();
    delete process.env.LANEWAY_PIPELINES_DIR;
    data.remove();
  });

  it('marks the interrupted execution failed with a clear error, ends its processes, and starts the queued one', async () => {
    const env = { LANEWAY_PIPELINES_DIR: FIXTURE_MANIFESTS };
    const cli = runCli(['serve', '--port', '0', '--data', data.path, '--json'], env);
    const { url } = await cli.waitForEvent<{ url: string }>('listening');
    await call(url, '/api/setup', null, {
      username: 'admin',
      password: 'admin password 1',
      email: 'a@lab.example',
      name: 'A',
    });
    const login = async (u: string) =>
      (await call<{ token: string }>(u, '/api/login', null, { username: 'admin', password: 'admin password 1' })).body
        .token;
    const token = await login(url);
    const pipelines = (
      await call<Array<{ name: string; versions: Array<{ id: number; is_latest: boolean }> }>>(
        url,
        '/api/pipelines',
        token,
      )
    ).body;
    const steps = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.is_latest)!.id;
    const marker = 515151 + Math.floor(Math.random() * 1000);
    const cpus = availableParallelism();
    const long = await call<Exec>(url, `/api/pipelines/versions/${steps}/run`, token, {
      parameters: { steps: 1000, delay_ms: 50, marker },
      resources: { cpus },
    });
    const queued = await call<Exec>(url, `/api/pipelines/versions/${steps}/run`, token, {
      parameters: { steps: 2 },
      resources: { cpus },
    });
    expect(await eventually(() => processesWith(String(marker)).length >= 2)).toBe(true);
    const pgrp = processesWith(String(marker))[0]!.pgrp;
    expect((await call<Exec>(url, `/api/executions/${queued.body.id}`, token)).body.status).toBe('queued');

    // A crash: the service dies without closing. Its worker's process group ends on its own (the
    // group keeper sees its parent gone) or, if it is still there, at the restart below.
    cli.child.kill('SIGKILL');
    await cli.exit;

    process.env.LANEWAY_PIPELINES_DIR = FIXTURE_MANIFESTS;
    restarted = await startTestService({ dataDir: data.path });
    const token2 = await login(restarted.url);
    const failed = (await call<Exec>(restarted.url, `/api/executions/${long.body.id}`, token2)).body;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Interrupted: the service stopped while this execution was running/);
    expect(failed.process_executions.map((p) => [p.name, p.status])).toEqual([
      ['prepare', 'completed'],
      ['work', 'failed'],
    ]);
    expect(await eventually(() => groupAlive(pgrp).length === 0)).toBe(true);
    expect(processesWith(String(marker))).toEqual([]);
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline && status !== 'completed') {
      status = (await call<Exec>(restarted.url, `/api/executions/${queued.body.id}`, token2)).body.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('completed');
  });

  it('stops running executions when the service closes: failed, processes gone', async () => {
    const token = (
      await call<{ token: string }>(restarted!.url, '/api/login', null, {
        username: 'admin',
        password: 'admin password 1',
      })
    ).body.token;
    const pipelines = (
      await call<Array<{ name: string; versions: Array<{ id: number; is_latest: boolean }> }>>(
        restarted!.url,
        '/api/pipelines',
        token,
      )
    ).body;
    const steps = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.is_latest)!.id;
    const marker = 626262 + Math.floor(Math.random() * 1000);
    const run = await call<Exec>(restarted!.url, `/api/pipelines/versions/${steps}/run`, token, {
      parameters: { steps: 1000, delay_ms: 50, marker },
    });
    expect(await eventually(() => processesWith(String(marker)).length >= 2)).toBe(true);
    const pgrp = processesWith(String(marker))[0]!.pgrp;
    await restarted!.stop();
    restarted = null;
    expect(groupAlive(pgrp)).toEqual([]);
    const again = await startTestService({ dataDir: data.path });
    const token3 = (
      await call<{ token: string }>(again.url, '/api/login', null, { username: 'admin', password: 'admin password 1' })
    ).body.token;
    const row = (await call<Exec>(again.url, `/api/executions/${run.body.id}`, token3)).body;
    expect(row).toMatchObject({
      status: 'failed',
      error: 'Interrupted: the service stopped while this execution was running',
    });
    restarted = again;
  });
});
