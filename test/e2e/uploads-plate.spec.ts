/**
 * A plate of samples queued from the Uploads screen (issue 21): beyond 20 samples and lanes the
 * screen shows a line of counts by state and the latest 20 (every failed one too), the rest
 * behind "Show all"; the whole plate uploads and is created. (How many notices a plate gives
 * depends on how close together its samples finish: summariseNotices has its unit test.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { ensureFirstAccount, fastq, TECH } from './service-api';
import { signIn } from './ui-session';

test('uploads: a plate of 25 samples is counted by state, the latest listed, all behind Show all', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-plate-'));
  const tag = `p${Date.now() % 100000}`;
  const names = Array.from({ length: 25 }, (_, i) => `${tag}W${String(i + 1).padStart(2, '0')}`);
  // Named as BCL Convert names a plate's single-end reads: sample, S number, lane, read, 001.
  names.forEach((n, i) => writeFileSync(join(dir, `${n}_S${i + 1}_L001_R1_001.fastq`), fastq(40, 300 + i)));

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-uploads').click();
  await page.getByTestId('ingest-paths').fill(dir);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  await expect(page.getByTestId('proposal-samples').getByRole('textbox')).toHaveCount(25);
  await page.getByLabel('Organism (all samples)').selectOption('Mus musculus');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();

  const table = page.getByTestId('uploads-table');
  await expect(table.locator('tr[data-state="completed"]', { hasText: tag })).toHaveCount(25, { timeout: 90_000 });
  // The worker's app is shared: earlier tests' samples count too, and these 25 are the latest.
  const summary = page.getByTestId('upload-groups-summary');
  await expect(summary).toContainText(/^\d+ samples(?: and lanes)?: .*created/);
  const groups = page.getByTestId('upload-groups');
  for (const n of names.slice(5)) await expect(groups).toContainText(`${n}: created`, { timeout: 30_000 });
  for (const n of names.slice(0, 5)) await expect(groups).not.toContainText(`${n}:`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('uploads-plate'), fullPage: true });

  await page.getByRole('button', { name: /^Show all [\d,]+/ }).click();
  // Shown all, only the lines near the view and 60 from it on are in the page
  // (uploads-many-files.spec.ts): the plate's are the newest, so the view goes a little above
  // the list's last 25 lines (about 27 px each).
  const listBox = await groups.boundingBox();
  await page.evaluate((y) => window.scrollTo(0, y), (listBox?.y ?? 0) + (listBox?.height ?? 0) - 40 * 27);
  for (const n of names) await expect(groups).toContainText(`${n}: created`);
  await page.getByRole('button', { name: 'Show the latest 20' }).click();
  await expect(groups).not.toContainText(`${names[0]}:`);
});
