/**
 * Playwright fixtures: `laneway start --browser` for real (desktop core, embedded service as a
 * child process, the built UI) in a fresh home folder, shared by the tests of one worker; and
 * `startLaneway()` for a test that needs a pristine one (first run).
 *
 * Every service these start checks its answers against their response schemas
 * (LANEWAY_VALIDATE_RESPONSES=1, set in playwright.config.ts, as vitest does), and a test fails
 * when one of them answered 500: the service logs `INTERNAL ...` on its stderr (which the CLI
 * passes on) for a schema hole as for any other fault, and the page saw the 500.
 */
import { test as base, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliProcess } from '../helpers/cli';

/** The services started by this worker, each with how much of its stderr was already checked. */
const live = new Set<{ cli: CliProcess; checked: number }>();

/** The lines of a service's stderr that mean a fault: an INTERNAL answer (a response-schema hole among them). */
export function internalErrors(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^\[service\] INTERNAL /.test(line) || line.includes('does not fit its response schema'));
}

/** The faults logged since the last check by every live service, and by `stopped` to its end. */
function faultsSinceLastCheck(stopped?: CliProcess): string[] {
  const out: string[] = [];
  for (const entry of live) {
    const text = entry.cli.stderr();
    out.push(...internalErrors(text.slice(entry.checked)));
    entry.checked = text.length;
    if (entry.cli === stopped) live.delete(entry);
  }
  return out;
}

function follow(cli: CliProcess): void {
  live.add({ cli, checked: 0 });
}

/** Throws when a service logged a fault (stop() and the per-test check call it). */
function failOnFaults(faults: string[]): void {
  if (faults.length) throw new Error(`The service answered 500 INTERNAL:\n${faults.join('\n')}`);
}

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
  follow(cli);
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
      failOnFaults(faultsSinceLastCheck(cli));
    },
  };
}

/** Starts `laneway serve` on a free port: a "remote" lab service for profile tests. */
export async function startRemoteService(): Promise<{ url: string; stop(): Promise<void> }> {
  const data = mkdtempSync(join(tmpdir(), 'laneway-remote-'));
  const cli = runCli(['serve', '--port', '0', '--data', data, '--json']);
  follow(cli);
  const ready = await cli.waitForEvent<{ url: string }>('listening', 60_000);
  return {
    url: ready.url,
    async stop() {
      cli.child.kill('SIGTERM');
      await cli.exit;
      rmSync(data, { recursive: true, force: true });
      failOnFaults(faultsSinceLastCheck(cli));
    },
  };
}

export const test = base.extend<{ serviceFaults: void }, { laneway: LanewayApp }>({
  // Every page: an answer of 500 it received fails the test (the service's own check logs why).
  page: async ({ page }, use) => {
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 500) failed.push(`${res.request().method()} ${res.url()}`);
    });
    await use(page);
    expect(failed, 'answers of 500 the page received').toEqual([]);
  },
  // Every test: a fault any live service logged during it fails that test.
  serviceFaults: [
    async ({}, use) => {
      await use();
      failOnFaults(faultsSinceLastCheck());
    },
    { auto: true },
  ],
  laneway: [
    async ({}, use) => {
      const app = await startLaneway();
      await use(app);
      await app.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect };

/** Where flow tests save the screenshots a person looks at. */
export const screenshotPath = (name: string) => join('test', 'e2e', 'screenshots', `${name}.png`);
