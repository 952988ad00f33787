import { afterAll, describe, expect, it } from 'vitest';
import { childServiceLauncher } from '../../src/main/core/child-service-launcher';
import { ServiceSupervisor } from '../../src/main/core/service-supervisor';
import type { ServiceStatus } from '../../src/shared/desktop-api/contract';
import { tempDir } from '../helpers/temp';

describe('service supervisor with the real service as a child process', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('starts the service, restarts it after kill -9, and stops it', async () => {
    const supervisor = new ServiceSupervisor({
      dataDir: dir.path,
      // Time is the one thing faked: the backoff is zero so the test does not wait.
      backoff: () => 0,
      launcher: childServiceLauncher(),
      fetchVersion: async (url) => ((await (await fetch(`${url}/api/health`)).json()) as { version: string }).version,
      onRestart: (info) => restarts.push(info),
    });
    const restarts: Array<{ previousUrl: string | null; url: string; exitCode: number | null }> = [];
    const states: ServiceStatus['state'][] = [];
    supervisor.onStatus((s) => states.push(s.state));
    const first = await supervisor.start();
    expect(first.state).toBe('running');
    expect(first.version).toMatch(/^\d+\.\d+\.\d+/);
    const firstUrl = first.url!;

    // Find the service's pid from the OS and kill it hard.
    const { execSync } = await import('node:child_process');
    const port = new URL(firstUrl).port;
    const pid = Number(
      execSync(`ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`).toString().trim(),
    );
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');

    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no restart: ${states.join(',')}`)), 20_000);
      const off = supervisor.onStatus((s) => {
        if (s.state === 'running') {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
    expect(states).toContain('crashed');
    expect(states).toContain('restarting');
    const again = await fetch(`${supervisor.getStatus().url}/api/health`);
    expect(again.status).toBe(200);
    // Its port was free again, so the restarted service took it: addresses held elsewhere still work.
    expect(supervisor.getStatus().url).toBe(firstUrl);
    expect(restarts).toEqual([{ previousUrl: firstUrl, url: firstUrl, exitCode: null, attempt: 1 }]);

    await supervisor.stop();
    expect(supervisor.getStatus().state).toBe('stopped');
    await expect(fetch(`${supervisor.getStatus().url ?? firstUrl}/api/health`)).rejects.toThrow();
  }, 60_000);
});
