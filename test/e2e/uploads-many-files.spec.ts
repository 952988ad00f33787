/**
 * A plate of hundreds of files on the Uploads screen (issue 21): the proposal and the queue's
 * table put only the rows near the view in the page, yet the table reads as the whole queue (its
 * row count, a page as tall as every row, the oldest file reached by scrolling), and a filter
 * finds files by name and state. The samples' lines, shown all, are windowed the same way.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { ensureFirstAccount, fastq, TECH } from './service-api';
import { signIn } from './ui-session';

const COUNT = 150;

test('uploads: 150 files are one table, only the rows in view in the page, found by name and state', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-many-files-'));
  const tag = `m${Date.now() % 100000}`;
  const names = Array.from({ length: COUNT }, (_, i) => `${tag}F${String(i + 1).padStart(3, '0')}`);
  // The oldest file's name is long: columns sized to the rows in the page would widen when it
  // scrolls in.
  names[0] = `${names[0]}_from_the_core_facility_run_folder_of_last_week`;
  // Named as BCL Convert names single-end reads; each file its own sample.
  names.forEach((n, i) => writeFileSync(join(dir, `${n}_S${i + 1}_L001_R1_001.fastq`), fastq(20, 900 + i)));

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-uploads').click();
  await page.getByTestId('ingest-paths').fill(dir);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  // The proposal too puts only the rows near the view in the page.
  await expect(page.locator('#proposal-title')).toHaveText(new RegExp(`^Proposed upload: ${COUNT} samples,`));
  const proposed = page.getByTestId('proposal-row');
  await expect(proposed.first()).toContainText(`${names[0]}_S1_`);
  expect(await proposed.count()).toBeLessThan(COUNT);
  // A keyboard user reaches the rows beyond the first window (60 and the overscan): four stops
  // a row (the Upload box, the name, Organism, Category), so 100 rows on is the 101st name.
  await page.getByLabel(`Name of the sample from ${names[0]}_S1_L001_R1_001.fastq`).focus();
  for (let i = 0; i < 4 * 100; i++) await page.keyboard.press('Tab');
  await expect(page.getByLabel(`Name of the sample from ${names[100]}_S101_L001_R1_001.fastq`)).toBeFocused();
  await page.getByLabel('Organism (all samples)').selectOption('Mus musculus');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  // The proposal goes with the button that had focus: focus moves to the panel's heading.
  await expect(page.locator('#ingest-title')).toBeFocused();

  // The worker's app is shared: earlier tests' files are in the queue too. This run's are found
  // by their tag, and all of them complete.
  const table = page.getByTestId('uploads-table');
  await page.getByTestId('uploads-find').fill(tag);
  await page.getByTestId('uploads-state-filter').selectOption('completed');
  await expect(page.getByTestId('uploads-shown')).toHaveText(new RegExp(`^${COUNT} files of [\\d,]+$`), {
    timeout: 90_000,
  });
  await expect(table).toHaveAttribute('aria-rowcount', String(COUNT + 1));
  // Newest first from the top, and far fewer rows in the page than in the table. (Where the view
  // is while rows arrive depends on the machine's speed: the browser keeps a row in view where
  // it was as newer ones are put above it. At the page's top it does not.)
  await page.evaluate(() => window.scrollTo(0, 0));
  const inPage = table.locator('tbody tr[data-state]');
  await expect(inPage.first()).toContainText(`${names[COUNT - 1]}_S${COUNT}_`);
  expect(await inPage.count()).toBeLessThan(COUNT);
  await expect(table.getByText(`${names[0]}_S1_`)).toHaveCount(0);

  // The page is as tall as every row, so scrolling to its end reaches the oldest file; the
  // columns stay where they were.
  const columnEdges = () =>
    table.locator('thead th').evaluateAll((ths) => ths.map((th) => Math.round(th.getBoundingClientRect().left)));
  const edgesAtTop = await columnEdges();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const oldest = table.locator('tr', { hasText: `${names[0]}_S1_` });
  await expect(oldest).toBeInViewport();
  await expect(oldest).toHaveAttribute('aria-rowindex', String(COUNT + 1));
  expect(await columnEdges()).toEqual(edgesAtTop);
  await expect(table.getByText(`${names[COUNT - 1]}_S${COUNT}_`)).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('uploads-many-files-end') });

  // Halfway down, the rows in view are the middle of the list, in order.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(inPage.first()).toContainText(`${names[COUNT - 1]}_S${COUNT}_`);
  const box = await table.boundingBox();
  await page.evaluate((y) => window.scrollTo(0, y), (box?.y ?? 0) + (box?.height ?? 0) / 2);
  const middle = table.locator('tr', { hasText: `${names[COUNT / 2 - 1]}_S${COUNT / 2}_` });
  await expect(middle).toBeInViewport();

  // One file by its name; none for a name that is not there.
  await page.getByTestId('uploads-state-filter').selectOption('');
  await page.getByTestId('uploads-find').fill(`${names[41]}_`);
  await expect(page.getByTestId('uploads-shown')).toHaveText(/^1 file of [\d,]+$/);
  await expect(inPage).toHaveCount(1);
  await expect(inPage.first()).toHaveAttribute('data-state', 'completed');
  await page.getByTestId('uploads-find').fill(`${tag}-nowhere`);
  await expect(page.getByText('No file in the queue matches.')).toBeVisible();
  await page.getByTestId('uploads-find').fill('');
  await expect(inPage.first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('uploads-many-files'), fullPage: true });

  // Every sample's line, on request: as many lines as samples, only those near the view in the
  // page, and the newest reached by scrolling to the list's end.
  await page.getByRole('button', { name: /^Show all [\d,]+/ }).click();
  const groups = page.getByTestId('upload-groups');
  const lines = Number(await groups.getAttribute('data-lines'));
  expect(lines).toBeGreaterThanOrEqual(COUNT);
  const groupLines = groups.locator('li[aria-posinset]');
  await expect(groupLines.first()).toHaveAttribute('aria-posinset', '1');
  expect(await groupLines.count()).toBeLessThan(lines);
  await expect(groups.getByText(`${names[COUNT - 1]}:`)).toHaveCount(0);
  const listBox = await groups.boundingBox();
  await page.evaluate((y) => window.scrollTo(0, y), (listBox?.y ?? 0) + (listBox?.height ?? 0) - 200);
  const newest = groups.locator('li', { hasText: `${names[COUNT - 1]}: created` });
  await expect(newest).toBeInViewport();
  await expect(newest).toHaveAttribute('aria-posinset', String(lines));
  await expect(newest).toHaveAttribute('aria-setsize', String(lines));
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('uploads-many-files-lines') });
});
