/**
 * Re-run and Resume on the execution dashboard, in Chromium against `laneway start --browser`
 * running the lifecycle fixtures: a Snakemake run that failed at its second step is resumed
 * (the first step does not run again), a built-in run shows why it cannot resume, a re-run
 * opens the new execution; the run's end reaches the browser as an in-app toast.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectAccessible } from './axe';
import { shootBoth } from './first-day';
import { expect, screenshotPath, startLaneway, test, type LanewayApp } from './fixtures';
import { call, createSample, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

const MANIFESTS = fileURLToPath(new URL('../integration/lifecycle/fixtures/manifests', import.meta.url));

let app: LanewayApp;
let scratch: string;
test.beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'laneway-resume-e2e-'));
  app = await startLaneway({ env: { LANEWAY_PIPELINES_DIR: MANIFESTS } });
  await ensureFirstAccount(app.serviceUrl);
});
test.afterAll(async () => {
  await app?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

type Pipelines = Array<{ id: number; name: string; versions: Array<{ id: number; version: string }> }>;
type Exec = { id: number; status: string };

async function run(token: string, pipeline: string, body: Record<string, unknown>): Promise<number> {
  const list = await call<Pipelines>(app.serviceUrl, 'GET', '/api/pipelines', { token });
  const version = list.find((p) => p.name === pipeline)!.versions.at(-1)!;
  const e = await call<Exec>(app.serviceUrl, 'POST', `/api/pipelines/versions/${version.id}/run`, { token, body });
  for (;;) {
    const now = await call<Exec>(app.serviceUrl, 'GET', `/api/executions/${e.id}`, { token });
    if (['completed', 'failed', 'cancelled'].includes(now.status)) return e.id;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// The completion toast once went missing whenever the run ended within 10 s of the sign-in: the
// core's notification watcher took its "what is new" baseline at its next tick, after the end.
test('execution dashboard: resume a failed Snakemake run, see why a built-in one cannot, re-run', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await tokenFor(app.serviceUrl, TECH);
  const tag = `r${Date.now() % 100000}`;
  const sample = await createSample(
    app.serviceUrl,
    token,
    `${tag}_s`,
    { organism: 'Homo sapiens', category: 'Genomic DNA' },
    3,
  );
  const counter = join(scratch, 'counter.txt');
  const gate = join(scratch, 'gate');
  const failed = await run(token, 'Test Resumable', {
    name: `Align ${tag}`,
    samples: [sample.id],
    parameters: { counter, gate },
  });
  const builtin = await run(token, 'Test Steps', { name: `Steps ${tag}`, parameters: { steps: 1, fail: true } });

  await signIn(page, app, TECH);
  await page.getByTestId('nav-executions').click();
  await page
    .getByTestId('executions-table')
    .getByRole('button', { name: `Steps ${tag}` })
    .click();
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('failed');
  await expect(dashboard.getByTestId('resume-button')).toBeDisabled();
  await expect(dashboard.getByTestId('resume-reason')).toContainText('built-in engine, which cannot resume');
  await expect(dashboard.getByRole('button', { name: 'Resume' })).toHaveAccessibleDescription(/built-in engine/);
  await expect(dashboard.getByTestId('rerun-button')).toBeEnabled();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-resume-disabled'), fullPage: true });

  await page.getByRole('button', { name: 'All executions' }).click();
  await page
    .getByTestId('executions-table')
    .getByRole('button', { name: `Align ${tag}` })
    .click();
  await expect(dashboard.getByTestId('execution-status')).toHaveText('failed');
  await expect(dashboard.getByTestId('resume-button')).toBeEnabled();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-resume-offered'), fullPage: true });
  expect(readFileSync(counter, 'utf8')).toBe(`${tag}_s\n`);

  writeFileSync(gate, 'open');
  await dashboard.getByTestId('resume-button').click();
  await expect(page.getByTestId('toasts')).toContainText(`Resuming Align ${tag}`);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(dashboard.getByTestId('resume-reason')).toContainText('nothing to resume');
  await expect(dashboard).toContainText('Resumed once.');
  expect(readFileSync(counter, 'utf8')).toBe(`${tag}_s\n`);
  // The service tells its owner; the core passes it on; without notification permission in
  // this browser it is an in-app toast.
  await expect(page.getByTestId('toasts')).toContainText(`Execution Align ${tag} completed`, { timeout: 30_000 });

  // Re-run opens the launch form filled in from this execution; sent as it is.
  await dashboard.getByTestId('rerun-button').click();
  const form = page.getByTestId('launch-form');
  await expect(form.getByTestId('rerun-note')).toContainText(`Align ${tag}`);
  await expect(form.getByLabel('Execution name')).toHaveValue(`Align ${tag} (re-run)`);
  await expect(form.getByRole('checkbox', { name: new RegExp(`${tag}_s`) })).toBeChecked();
  await form.getByTestId('launch').click();
  await expect(dashboard.getByText(`A re-run of`)).toBeVisible();
  await expect(dashboard.getByRole('button', { name: `execution ${failed}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Align ${tag} (re-run)` })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-rerun'), fullPage: true });
  expect(builtin).toBeGreaterThan(0);
  expect(existsSync(gate)).toBe(true);
});

test('re-run with a changed parameter: the form is filled in, one value changed, the new run has it', async ({
  page,
}) => {
  const token = await tokenFor(app.serviceUrl, TECH);
  const tag = `c${Date.now() % 100000}`;
  const first = await run(token, 'Test Steps', { name: `Steps ${tag}`, parameters: { steps: 3, fail: true } });
  await signIn(page, app, TECH);
  await page.goto(`${app.origin}/#/executions/${first}`);
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('failed');
  await dashboard.getByTestId('rerun-button').click();
  const form = page.getByTestId('launch-form');
  await expect(form.getByRole('spinbutton', { name: /steps/i })).toHaveValue('3');
  const fail = form.getByRole('checkbox', { name: /fail/i });
  await expect(fail).toBeChecked();
  await fail.uncheck();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-rerun-form'), fullPage: true });
  await form.getByTestId('launch').click();
  await expect(dashboard.getByText('A re-run of')).toBeVisible();
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
  const id = Number(/#\/executions\/(\d+)/.exec(page.url())![1]);
  const again = await call<{ parameters: Record<string, unknown>; rerun_of: number }>(
    app.serviceUrl,
    'GET',
    `/api/executions/${id}`,
    { token },
  );
  expect(again).toMatchObject({ rerun_of: first, parameters: { steps: 3, fail: false } });
  // The list tells the two apart: who ran each, for how long, and which is the re-run.
  await page.getByRole('button', { name: 'All executions' }).click();
  const row = page.getByTestId(`execution-row-${id}`);
  await expect(row).toContainText(`re-run of #${first}`);
  // What the list shows is now, not what it loaded when the dashboard opened.
  await expect(row.getByTestId('row-status')).toHaveText('completed');
  await expect(row.getByTestId('row-owner')).toHaveText(TECH.username);
  await expect(row.getByTestId('row-duration')).toHaveText(/^\d+ (s|min)/);
  await expect(page.getByTestId(`execution-row-${first}`).getByTestId('row-duration')).toHaveText(/^\d+ (s|min)/);
  await expectAccessible(page);
  await shootBoth(page, 'executions-list-owner-duration');
});
