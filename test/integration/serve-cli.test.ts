import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliToEnd } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

describe('laneway serve', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('serves /api/health from a new data folder and stops cleanly on SIGTERM', async () => {
    const data = join(dir.path, 'fresh', 'data');
    const p = runCli(['serve', '--port', '0', '--data', data, '--json']);
    const { url } = await p.waitForEvent<{ url: string }>('listening');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const unknown = await fetch(`${url}/api/unknown`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(existsSync(join(data, 'laneway.sqlite'))).toBe(true);
    p.child.kill('SIGTERM');
    expect((await p.exit).code).toBe(0);
  });

  it('prints its URL as a sentence without --json and stops on SIGINT', async () => {
    const p = runCli(['serve', '--port', '0', '--data', join(dir.path, 'b')]);
    await p.waitForLine(/listening on http:\/\/127\.0\.0\.1:\d+/);
    p.child.kill('SIGINT');
    expect((await p.exit).code).toBe(0);
  });

  it('refuses bad usage with exit code 2 and a clear message', async () => {
    // Three processes at once: the test waits for their exits, not for three start-ups in a row.
    const [noData, badPort, unknown] = await Promise.all([
      runCliToEnd(['serve', '--port', '0'], { LANEWAY_DATA: '' }),
      runCliToEnd(['serve', '--port', 'x', '--data', dir.path]),
      runCliToEnd(['frobnicate']),
    ]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toMatch(/--data/);
    expect(badPort.code).toBe(2);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command/);
  });

  it('documents its commands in --help', async () => {
    const help = await runCliToEnd(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/serve --port P --data DIR/);
    expect(help.stdout).toMatch(/start/);
  });
});
