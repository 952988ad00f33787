/**
 * Playwright fixture: `laneway start --browser` for real (desktop core, embedded service as a
 * child process, the built UI), one per test file, in a fresh home folder.
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
}

export const test = base.extend<object, { laneway: LanewayApp }>({
  laneway: [
    async ({}, use) => {
      const home = mkdtempSync(join(tmpdir(), 'laneway-e2e-'));
      const cli = runCli(['start', '--browser', '--no-open', '--json', '--home', home]);
      const ready = await cli.waitForEvent<{ url: string; service: string }>('ready', 60_000);
      const url = new URL(ready.url);
      await use({
        url: ready.url,
        origin: url.origin,
        token: url.searchParams.get('token')!,
        serviceUrl: ready.service,
        home,
        cli,
      });
      cli.child.kill('SIGTERM');
      await cli.exit;
      rmSync(home, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';

/** Where flow tests save the screenshots a person looks at. */
export const screenshotPath = (name: string) => join('test', 'e2e', 'screenshots', `${name}.png`);
