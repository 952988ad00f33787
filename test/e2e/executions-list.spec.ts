/**
 * The executions list: status and pipeline filters, and status and progress refreshing on their
 * own while a run progresses. The app runs the shipped manifests plus the log-flood fixture (a
 * paced worker gives a run that is visibly running for several seconds).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, startLaneway, test, type LanewayApp } from './fixtures';
import { LOG_FLOOD_DIR } from './fixtures/log-flood/expected';
import { call, createSample, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

let app: LanewayApp;
let manifests: string;
test.beforeAll(async () => {
  manifests = mkdtempSync(join(tmpdir(), 'laneway-manifests-'));
  cpSync(join('resources', 'pipelines'), manifests, { recursive: true });
  // The fixture's worker path is relative to its own folder: made absolute for the copy.
  const flood = JSON.parse(readFileSync(join(LOG_FLOOD_DIR, 'log-flood.json'), 'utf8')) as {
    versions: Array<{ engine: string }>;
  };
  for (const v of flood.versions) v.engine = `node:${join(LOG_FLOOD_DIR, 'log-flood-worker')}`;
  writeFileSync(join(manifests, 'log-flood.json'), JSON.stringify(flood));
  app = await startLaneway({ env: { LANEWAY_PIPELINES_DIR: manifests } });
  await ensureFirstAccount(app.serviceUrl);
});
test.afterAll(async () => {
  await app?.stop();
  rmSync(manifests, { recursive: true, force: true });
});

type Pipelines = Array<{ id: number; name: string; versions: Array<{ id: number; is_latest: boolean }> }>;

async function run(token: string, pipeline: string, body: Record<string, unknown>): Promise<number> {
  const list = await call<Pipelines>(app.serviceUrl, 'GET', '/api/pipelines', { token });
  const version = list.find((p) => p.name === pipeline)!.versions.find((v) => v.is_latest)!;
  const e = await call<{ id: number }>(app.serviceUrl, 'POST', `/api/pipelines/versions/${version.id}/run`, {
    token,
    body,
  });
  return e.id;
}

test('executions list: filters by status and pipeline; status and progress refresh while a run progresses', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await tokenFor(app.serviceUrl, TECH);
  const sample = await createSample(
    app.serviceUrl,
    token,
    'list_s',
    { organism: 'Homo sapiens', category: 'Genomic DNA' },
    3,
  );
  const qc = await run(token, 'FASTQ Quality Control', { name: 'QC listed', samples: [sample.id], parameters: {} });
  // 60 batches of 100 lines, 200 ms apart: running for about twelve seconds.
  const slow = await run(token, 'Log Flood', { name: 'Slow flood', parameters: { lines: 6000, pace_ms: 200 } });

  await signIn(page, app, TECH);
  await page.getByTestId('nav-executions').click();
  const table = page.getByTestId('executions-table');
  const slowRow = table.getByTestId(`execution-row-${slow}`);
  await expect(slowRow.getByTestId('row-status')).toHaveText('running', { timeout: 30_000 });

  // No click on Refresh: the list refreshes itself while something runs.
  const progress = async () => Number((await slowRow.getByTestId('row-progress').textContent())?.replace('%', ''));
  const first = await progress();
  await expect.poll(progress, { timeout: 20_000 }).toBeGreaterThan(first);
  await expect(table.getByTestId(`execution-row-${qc}`).getByTestId('row-status')).toHaveText('completed', {
    timeout: 30_000,
  });
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('executions-list-running'), fullPage: true });

  // Filters, through the keyboard-reachable selects and their labels.
  await page.getByLabel('Pipeline').selectOption({ label: 'FASTQ Quality Control' });
  await expect(table.getByTestId(`execution-row-${qc}`)).toBeVisible();
  await expect(slowRow).toHaveCount(0);
  await page.getByLabel('Pipeline').selectOption({ label: 'Log Flood' });
  await expect(slowRow).toBeVisible();
  await expect(table.getByTestId(`execution-row-${qc}`)).toHaveCount(0);
  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByText('No execution matches these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  await expect(slowRow.getByTestId('row-status')).toHaveText('completed', { timeout: 30_000 });
  await expect(slowRow.getByTestId('row-progress')).toHaveText('100%');
  await page.getByLabel('Status').selectOption('completed');
  await expect(slowRow).toBeVisible();

  // Keyboard: the execution's name is a button; Enter opens its dashboard.
  await slowRow.getByRole('button', { name: 'Slow flood' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('execution-dashboard')).toContainText('Slow flood');
});
