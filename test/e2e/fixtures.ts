/**
 * Playwright fixtures: `laneway start --browser` for real (desktop core, embedded service as a
 * child process, the built UI) in a fresh home folder, shared by the tests of one worker; and
 * `startLaneway()` for a test that needs a pristine one (first run).
 */
import { test as base } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliProcess } from '../helpers/cli';

export interface LanewayApp {
  url: string;
  origin: string;
  token: string;
  serviceUrl: string;
  home: string;
  cli: CliProcess;
  stop(): Promise<void>;
}

/**
 * Starts `laneway start --browser` in a new home folder; `stop()` ends it and removes the folder.
 * `env` reaches the desktop core and the embedded service child (e.g. LANEWAY_PIPELINES_DIR);
 * `home` starts it again in an earlier launch's folder (kept with `keepHome`).
 */
export async function startLaneway(
  options: { env?: Record<string, string>; home?: string; keepHome?: boolean } = {},
): Promise<LanewayApp> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'laneway-e2e-'));
  const cli = runCli(['start', '--browser', '--no-open', '--json', '--home', home], options.env);
  const ready = await cli.waitForEvent<{ url: string; service: string }>('ready', 60_000);
  const url = new URL(ready.url);
  return {
    url: ready.url,
    origin: url.origin,
    token: url.searchParams.get('token')!,
    serviceUrl: ready.service,
    home,
    cli,
    async stop() {
      cli.child.kill('SIGTERM');
      await cli.exit;
      if (!options.keepHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Starts `laneway serve` on a free port: a "remote" lab service for profile tests. */
export async function startRemoteService(): Promise<{ url: string; stop(): Promise<void> }> {
  const data = mkdtempSync(join(tmpdir(), 'laneway-remote-'));
  const cli = runCli(['serve', '--port', '0', '--data', data, '--json']);
  const ready = await cli.waitForEvent<{ url: string }>('listening', 60_000);
  return {
    url: ready.url,
    async stop() {
      cli.child.kill('SIGTERM');
      await cli.exit;
      rmSync(data, { recursive: true, force: true });
    },
  };
}

export const test = base.extend<object, { laneway: LanewayApp }>({
  laneway: [
    async ({}, use) => {
      const app = await startLaneway();
      await use(app);
      await app.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';

/** Where flow tests save the screenshots a person looks at. */
export const screenshotPath = (name: string) => join('test', 'e2e', 'screenshots', `${name}.png`);
