/**
 * Hundreds of samples queued from the Uploads screen, as a technician does with a plate: the app
 * in browser mode (`laneway start --browser`, Debian's Chromium through Playwright), a folder of
 * 500 small FASTQ files (`--quick`: 100) given by path, "Propose samples" (one single-end sample
 * per file), Organism and Category for all, "Confirm and upload"; timed from that click until
 * every file's row reads completed and every sample's line created. The reference: the same
 * samples through the desktop core with no screen (the queue benchmark's process, enqueueSamples
 * into `laneway serve`), in the same run. The renderer's long tasks (over 50 ms, counted by a
 * PerformanceObserver), the time until every row is listed and the time from "Propose samples" to
 * the proposal shown go in the notes.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { ensureAppBuild } from '../../src/cli/app-build.mjs';
import { ensureCli } from '../../src/cli/build-cli.mjs';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import type { Benchmark } from './harness';
import { makeFastq, throughQueue } from './queue.bench';

interface ScreenRun {
  /** From "Propose samples" to the proposal's rows. */
  proposed: number;
  listed: number;
  completed: number;
  longTasks: number;
  longMs: number;
  maxLongMs: number;
}

/** The upload of `count` samples from `folder` through the Uploads screen of a new app. */
async function throughScreen(folder: string, count: number): Promise<ScreenRun> {
  const home = tempDir('laneway-screen-bench-');
  const app = runCli(['start', '--browser', '--no-open', '--json', '--home', home.path]);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const { url } = await app.waitForEvent<{ url: string }>('ready', 120_000);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    const setup = page.getByTestId('setup-form');
    await setup.getByLabel('Username').fill('bench');
    await setup.getByLabel('Full name').fill('Bench');
    await setup.getByLabel('E-mail').fill('bench@lab.test');
    await setup.getByLabel(/Password/).fill('bench-password-1');
    await setup.getByRole('button', { name: 'Create account and sign in' }).click();
    await page.getByTestId('header-user').waitFor();
    await page.getByTestId('nav-uploads').click();
    await page.getByTestId('ingest-paths').fill(folder);
    const tp = performance.now();
    await page.getByRole('button', { name: 'Propose samples' }).click();
    await page.getByTestId('proposal-region').waitFor();
    // Shown once the first sample's row is in the page (the core has looked them all up).
    await page.getByTestId('proposal-row').first().waitFor();
    const proposed = performance.now() - tp;
    await page.getByLabel('Organism (all samples) *').selectOption('Homo sapiens');
    await page.getByLabel('Category (all samples) *').selectOption({ index: 1 });
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({
        type: 'longtask',
      });
    });
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Confirm and upload' }).click();
    // The table puts only the rows in view in the page (use-row-window.ts): it says how many it
    // lists, and its state filter how many are completed.
    const wait = { timeout: 1_800_000, polling: 200 };
    await page.waitForFunction(
      (n) => Number(document.querySelector<HTMLElement>('[data-testid="uploads-table"]')?.dataset.rows) >= n,
      count,
      wait,
    );
    const listed = performance.now() - t0;
    await page.waitForFunction(
      // A plate's samples are a line of counts by state (upload-groups.tsx).
      (n) =>
        document.querySelector('[data-testid="uploads-state-filter"] option[value="completed"]')?.textContent ===
          `completed (${n.toLocaleString('en')})` &&
        (document.querySelector('[data-testid="upload-groups-summary"]')?.textContent ?? '').endsWith(
          `: ${n.toLocaleString('en')} created`,
        ),
      count,
      wait,
    );
    const completed = performance.now() - t0;
    const long = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    return {
      proposed: proposed / 1000,
      listed: listed / 1000,
      completed: completed / 1000,
      longTasks: long.length,
      longMs: long.reduce((a, b) => a + b, 0),
      maxLongMs: Math.max(0, ...long),
    };
  } finally {
    await browser.close();
    app.child.kill('SIGTERM');
    await app.exit;
    home.remove();
  }
}

export const benchmark: Benchmark = {
  name: 'uploads screen, a plate of samples',
  async run(ctx) {
    await ensureCli();
    if (!(await ensureAppBuild())) throw new Error('the app does not build');
    const count = ctx.quick ? 100 : 500;
    const folder = join(ctx.workDir, `screen-samples-${count}`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // Distinct content per file (the queue would rightly take copies as one), named like a plate.
    for (let i = 0; i < count; i++)
      makeFastq(join(folder, `P${String(i + 1).padStart(4, '0')}.fastq`), 20_000, 1000 + i);
    ctx.log(`${count} samples without a screen...`);
    const core = await throughQueue(ctx.workDir, `${folder}/`, { samples: true, folder: 'screen-core' });
    rmSync(join(ctx.workDir, 'screen-core'), { recursive: true, force: true });
    rmSync(join(ctx.workDir, 'screen-core-state'), { recursive: true, force: true });
    ctx.log(`${count} samples from the Uploads screen...`);
    const screen = await throughScreen(folder, count);
    ctx.log(
      `without a screen ${core.seconds.toFixed(1)} s; the screen: proposal shown in ${screen.proposed.toFixed(1)} s, rows listed at ${screen.listed.toFixed(1)} s, all completed and created at ${screen.completed.toFixed(1)} s`,
    );
    return [
      {
        name: `${count} samples queued from the Uploads screen, until all are created`,
        unit: 's',
        reference: { tool: 'the desktop core without a screen', value: core.seconds },
        ours: screen.completed,
        higherIsBetter: false,
        notes: `proposal shown ${screen.proposed.toFixed(1)} s after "Propose samples"; rows listed at ${screen.listed.toFixed(1)} s; renderer long tasks: ${screen.longTasks}, ${(screen.longMs / 1000).toFixed(1)} s in all, the longest ${screen.maxLongMs.toFixed(0)} ms; no goal in issue 21`,
      },
    ];
  },
};
