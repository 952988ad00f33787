import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, ensureFirstAccount, fastq, samplesNamed, TECH, tokenFor, type ServiceSample } from './service-api';
import { signIn } from './ui-session';
import { ageTree } from './folder-age';

/** The service's sample of that name (the test's own tag makes it unique). */
async function sampleNamed(serviceUrl: string, name: string): Promise<ServiceSample | undefined> {
  return (await samplesNamed(serviceUrl, name)).find((s) => s.name === name);
}

/** The names of the technician's data records on the service. */
async function dataFilenames(serviceUrl: string): Promise<string[]> {
  const token = await tokenFor(serviceUrl, TECH);
  const data = await call<{ items: Array<{ filename: string }> }>(serviceUrl, 'GET', '/api/data/?per_page=100', {
    token,
  });
  return data.items.map((d) => d.filename);
}

test('watched folder: an Illumina run is detected, uploads on its own, is registered and launches QC', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const root = mkdtempSync(join(tmpdir(), 'laneway-instrument-'));
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-watchers').click();
  await page.getByTestId('watcher-path').fill(root);
  await page.getByLabel('Instrument').selectOption('illumina');
  // Without Organism and Category the folder's runs could not become samples: the form says so.
  await expect(page.getByTestId('watcher-missing-metadata')).toContainText('Without Organism and Category');
  await page.getByLabel('Organism (every sample)').selectOption('Homo sapiens');
  await page.getByLabel('Category (every sample)').selectOption('Genomic DNA');
  await expect(page.getByTestId('watcher-missing-metadata')).toHaveCount(0);
  await page.getByLabel('Launch on each registered run').selectOption('FASTQ Quality Control');
  // Browser mode has no native folder picker: the path field only.
  await expect(page.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Watch folder' }).click();
  const table = page.getByTestId('watchers-table');
  await expect(table).toContainText(root);
  await expect(table).toContainText('Homo sapiens · Genomic DNA');
  await expect(table).toContainText('then FASTQ Quality Control');
  await expect(table).toContainText('watching');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('watched-folders'), fullPage: true });

  // The instrument writes a run: RunInfo, RTAComplete, FASTQs with BCL Convert's marker, CopyComplete last.
  const run = join(root, '251121_M00001_0042_000000000-LANE1');
  mkdirSync(join(run, 'Analysis', '1', 'Data', 'fastq'), { recursive: true });
  mkdirSync(join(run, 'Analysis', '1', 'Logs'), { recursive: true });
  writeFileSync(join(run, 'RunInfo.xml'), '<?xml version="1.0"?><RunInfo><Run Id="LANE1"/></RunInfo>\n');
  writeFileSync(join(run, 'RTAComplete.txt'), 'done\n');
  const fq = join(run, 'Analysis', '1', 'Data', 'fastq');
  writeFileSync(join(fq, 'Liver1_S1_L001_R1_001.fastq'), fastq(40, 11));
  writeFileSync(join(fq, 'Liver1_S1_L001_R2_001.fastq'), fastq(40, 12));
  writeFileSync(join(run, 'Analysis', '1', 'Logs', 'FastqComplete.txt'), 'done\n');
  writeFileSync(join(run, 'CopyComplete.txt'), '');
  // The copy finished a minute ago: past the few seconds a watcher waits for files to settle.
  ageTree(run, Date.now() / 1000 - 60);
  await table.getByRole('button', { name: `Scan now: ${root}` }).click();

  await page.getByTestId('nav-runs').click();
  const card = page.locator('[data-testid^="run-"]').filter({ hasText: '251121_M00001_0042_000000000-LANE1' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  // Uploaded and verified on its own, registered as a sample, then QC launched on it.
  await expect(card).toHaveAttribute('data-state', 'launched', { timeout: 60_000 });
  for (const step of ['Verified', 'Registered', 'Launched'])
    await expect(card.locator('.step-done', { hasText: step })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  // Issue 20 item 8: the run's card names its samples (it named none).
  await expect(card.getByTestId('run-samples')).toHaveText('In this run: 1 sample, paired: Liver1.');
  const link = card.getByTestId('run-execution-link');
  await expect(link).toHaveText(/^Execution \d+$/);
  const executionId = Number((await link.textContent())!.replace('Execution ', ''));
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('runs-timeline'), fullPage: true });

  // The run's reads are on the service as data records.
  expect(await dataFilenames(laneway.serviceUrl)).toContain('Liver1_S1_L001_R1_001.fastq');
  // The sample exists with the folder's metadata, and the execution runs on it.
  const sample = await sampleNamed(laneway.serviceUrl, 'Liver1');
  expect(sample?.metadata).toMatchObject({ organism: 'Homo sapiens', category: 'Genomic DNA' });
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const execution = await call<{ samples: unknown[]; pipeline: unknown }>(
    laneway.serviceUrl,
    'GET',
    `/api/executions/${executionId}`,
    { token },
  );
  expect(JSON.stringify(execution.samples)).toContain(String(sample!.id));
  // The timeline's link opens the execution.
  await link.click();
  await expect(page.locator('#execution-title')).toHaveText(/^251121_M00001_0042_000000000-LANE1 \(Laneway run \d+\)$/);
});

test('uploads: files given by path become an editable proposal, then upload with progress', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-drop-'));
  const tag = `u${Date.now() % 100000}`;
  writeFileSync(join(dir, `${tag}_S1_L001_R1_001.fastq`), fastq(60, 21));
  writeFileSync(join(dir, `${tag}_S1_L001_R2_001.fastq`), fastq(60, 22));
  writeFileSync(join(dir, 'notes.txt'), 'not a read file\n');

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-uploads').click();
  await page.getByTestId('ingest-paths').fill(dir);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  const proposal = page.getByTestId('proposal-samples');
  await expect(proposal).toContainText(`${tag}_S1_L001_R1_001.fastq`);
  await expect(proposal).toContainText(`${tag}_S1_L001_R2_001.fastq`);
  const name = proposal.getByRole('textbox');
  await name.fill(`${tag}_kidney`);
  // Nothing goes up while the service would refuse the sample: Confirm says why it is disabled.
  const confirm = page.getByRole('button', { name: 'Confirm and upload' });
  await expect(confirm).toBeDisabled();
  await expect(page.getByTestId('confirm-blocked')).toHaveText(
    `Choose Organism and Category for sample ${tag}_kidney: the service refuses samples without them`,
  );
  await expect(confirm).toHaveAccessibleDescription(/Choose Organism and Category/);
  await page.getByLabel('Organism (all samples)').selectOption('Mus musculus');
  await expect(page.getByTestId('confirm-blocked')).toHaveText(/^Choose Category for sample/);
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  // A per-sample choice overrides the one for all samples.
  await proposal.getByLabel(`Organism of ${tag}_kidney`).selectOption('Homo sapiens');
  await expect(confirm).toBeEnabled();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('ingest-proposal'), fullPage: true });
  await confirm.click();

  const uploads = page.getByTestId('uploads-table');
  // The worker's app is shared: other tests' rows may be listed too.
  await expect(uploads.locator('tr[data-state="completed"]', { hasText: tag })).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByTestId('upload-groups')).toContainText(`${tag}_kidney: created`, { timeout: 30_000 });
  const sample = await sampleNamed(laneway.serviceUrl, `${tag}_kidney`);
  expect(sample?.metadata).toMatchObject({ organism: 'Homo sapiens', category: 'Total RNA' });
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('uploads-queue'), fullPage: true });

  // The outcome is in the in-app notifications (and a desktop notification in Electron).
  await page.getByTestId('nav-notifications').click();
  await expect(page.getByTestId('activity-list')).toContainText(`${tag}_kidney`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('notifications-activity'), fullPage: true });

  // Both files are on the service as data records.
  const names = await dataFilenames(laneway.serviceUrl);
  expect(names).toContain(`${tag}_S1_L001_R1_001.fastq`);
  expect(names).toContain(`${tag}_S1_L001_R2_001.fastq`);
});

test('uploads: a throttled upload is paused, resumed and cancelled from its row', async ({ page, laneway }) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-slow-'));
  const tag = `t${Date.now() % 100000}`;
  const file = join(dir, `${tag}_bulk.fastq`);
  writeFileSync(file, fastq(20_000, 31)); // about 2.4 MB: some seconds at 1 Mbit/s

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-uploads').click();
  await page.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('1');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('form', { name: 'Upload settings' }).getByRole('status')).toHaveText('Saved');
  try {
    await page.getByTestId('ingest-paths').fill(file);
    await page.getByRole('button', { name: 'Propose samples' }).click();
    await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
    await page.getByLabel('Category (all samples)').selectOption('DNA');
    await page.getByRole('button', { name: 'Confirm and upload' }).click();
    const row = page.getByTestId('uploads-table').locator('tr', { hasText: `${tag}_bulk.fastq` });
    await expect(row).toHaveAttribute('data-state', /uploading|queued|hashing|waiting/);
    await row.getByRole('button', { name: `Pause ${tag}_bulk.fastq` }).click();
    await expect(row).toHaveAttribute('data-state', 'paused');
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('uploads-paused'), fullPage: true });
    await row.getByRole('button', { name: `Resume ${tag}_bulk.fastq` }).click();
    await expect(row).not.toHaveAttribute('data-state', 'paused');
    await row.getByRole('button', { name: `Cancel ${tag}_bulk.fastq` }).click();
    await expect(row).toHaveAttribute('data-state', 'cancelled');
  } finally {
    await page.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
  }
});
