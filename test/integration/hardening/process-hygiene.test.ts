/**
 * Issue 11 row 4 and part 4: children end with their parent, however the parent ends.
 * - Row 4: the browser-mode host crashed on `GET http://[` (no token) and on `GET /%E0%A4%A`
 *   (with the cookie), and its service child kept running with no parent.
 * - A host killed with SIGKILL takes its service child with it.
 * - A service killed with SIGKILL takes its pipeline's whole process group with it (a worker and
 *   the child and grandchild it started), with no restart needed to clean up.
 * Real processes throughout: `laneway start --browser` and `laneway serve`, found in /proc.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, type CliProcess } from '../../helpers/cli';
import { rawRequest } from '../../helpers/raw-http';
import { tempDir } from '../../helpers/temp';
import { FIXTURE_MANIFESTS } from '../pipelines/pipeline-kit';
import { eventually, groupAlive, processesWith } from '../pipelines/proc-helpers';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

function listenerPid(port: string): number {
  return Number(
    execSync(`ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`).toString().trim(),
  );
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

describe('process hygiene (issue 11 row 4, part 4)', () => {
  const dir = tempDir('laneway-hygiene-');
  const started: CliProcess[] = [];
  afterAll(async () => {
    for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    dir.remove();
  });

  it('the browser host answers hostile targets with 400 and, killed with SIGKILL, takes its service along', async () => {
    const host = runCli(['start', '--browser', '--no-open', '--json', '--home', join(dir.path, 'home')]);
    started.push(host);
    const ready = await host.waitForEvent<{ url: string; service: string }>('ready', 120_000);
    const hostPort = Number(new URL(ready.url).port);
    const token = new URL(ready.url).searchParams.get('token')!;
    const hostHeader = `Host: 127.0.0.1:${hostPort}\r\n`;

    const noToken = await rawRequest(hostPort, `GET http://[ HTTP/1.1\r\n${hostHeader}Connection: close\r\n\r\n`);
    expect(noToken.status).toBeGreaterThanOrEqual(400);
    expect(noToken.status).toBeLessThan(500);
    const badEscape = await rawRequest(
      hostPort,
      `GET /%E0%A4%A HTTP/1.1\r\n${hostHeader}Cookie: laneway_token=${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(badEscape.status).toBe(400);
    const upgrade = await rawRequest(
      hostPort,
      `GET http://[ HTTP/1.1\r\n${hostHeader}Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
    );
    expect(upgrade.status).toBe(403);
    expect(host.child.exitCode).toBeNull();
    const page = await fetch(ready.url);
    expect(page.status).toBe(200);

    const servicePid = listenerPid(new URL(ready.service).port);
    expect(parentOf(servicePid)).toBe(host.child.pid);
    host.child.kill('SIGKILL');
    await host.exit;
    expect(await eventually(() => !alive(servicePid), 15_000)).toBe(true);
  });

  it('a service killed with SIGKILL takes its running pipeline process group along', async () => {
    const serve = runCli(['serve', '--port', '0', '--data', join(dir.path, 'serve'), '--json'], {
      LANEWAY_PIPELINES_DIR: FIXTURE_MANIFESTS,
    });
    started.push(serve);
    const { url } = await serve.waitForEvent<{ url: string }>('listening', 90_000);
    const post = async (path: string, body: unknown, token?: string) =>
      (await (
        await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, unknown>;
    await post('/api/setup', { username: 'admin', password: 'admin password 1', email: 'a@lab.test', name: 'A' });
    const token = (await post('/api/login', { username: 'admin', password: 'admin password 1' })).token as string;
    const pipelines = (await (
      await fetch(`${url}/api/pipelines`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as Array<{
      name: string;
      versions: Array<{ id: number; is_latest: boolean }>;
    }>;
    const steps = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.is_latest)!.id;
    const marker = 737373 + Math.floor(Math.random() * 1000);
    const run = await post(
      `/api/pipelines/versions/${steps}/run`,
      { parameters: { steps: 1000, delay_ms: 50, marker } },
      token,
    );
    expect(run).toMatchObject({ status: 'queued' });
    expect(await eventually(() => processesWith(String(marker)).length >= 2)).toBe(true);
    const pgrp = processesWith(String(marker))[0]!.pgrp;

    serve.child.kill('SIGKILL');
    await serve.exit;
    // No restart: the group ends on its own because its parent is gone.
    expect(await eventually(() => groupAlive(pgrp).length === 0, 15_000)).toBe(true);
    expect(processesWith(String(marker))).toEqual([]);
  });
});
