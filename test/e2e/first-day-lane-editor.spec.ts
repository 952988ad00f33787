/**
 * Issue 16 item 7: the lane editor keeps work. Leaving with an unsaved sheet asks first (the
 * navigation and Back alike); at 1024x700 the grid leaves the checks in sight; the submit
 * result is scrolled into view and takes focus; after a submission nothing is asked any more.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { shootBoth, SMALL } from './first-day';
import { ensureFirstAccount, TECH } from './service-api';
import { signIn } from './ui-session';
import { newSheetWith } from './sheet-grid';

test('item 7: leaving an unsaved sheet asks, the checks stay in sight, the result comes into view', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  await page.setViewportSize(SMALL);
  await signIn(page, laneway, TECH);
  await page.getByTestId('menu-toggle').click();
  const tag = `E${Date.now() % 100000}`;
  const rows = [
    [`${tag}_a`, 'ACGTACGT'],
    [`${tag}_b`, 'TGCATGCA'],
  ];
  await newSheetWith(page, rows.map(([n, b]) => `${n}\t${b}\tHomo sapiens\tGenomic DNA`).join('\n'));
  await expect(page.getByTestId('sheet-meta')).toContainText('unsaved changes');

  // The checks under the grid are in sight at 1024x700 without scrolling.
  await page.evaluate(() => window.scrollTo(0, 0));
  const counts = page.getByTestId('issue-counts');
  await expect(counts).toBeInViewport();

  // Leaving by the menu asks; staying keeps everything.
  await page.getByTestId('menu-toggle').click();
  await page.getByTestId('nav-samples').click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('leave-reason')).toContainText('unsaved changes in the lane sheet');
  await expectAccessible(page);
  await shootBoth(page, 'first-day-lane-leave');
  await page.setViewportSize(SMALL);
  await dialog.getByRole('button', { name: 'Stay here' }).click();
  await expect(page).toHaveURL(/#\/annotation$/);
  await expect(page.getByTestId('sheet-meta')).toContainText('2 rows');

  // Back asks too.
  await page.goBack();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay here' }).click();
  await expect(page).toHaveURL(/#\/annotation$/);

  // Submitting the lane: its result is brought into view and focus.
  const dir = mkdtempSync(join(tmpdir(), 'laneway-lane7-'));
  const fq = join(dir, 'lane.fastq');
  let text = '';
  rows.forEach(([, b], k) => {
    for (let i = 0; i < 20; i++)
      text += `@M1:1:FC:1:1101:${k}${i}:1 1:N:0:${b}\nACGTTGCAACGTTGCAACGT\n+\nIIIIIIIIIIIIIIIIIIII\n`;
  });
  writeFileSync(fq, text);
  await page.getByTestId('open-fastq').setInputFiles(fq);
  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const warnings = page.getByRole('dialog');
  const status = submit.getByTestId('lane-status');
  await expect(status.or(warnings.getByTestId('lane-warnings'))).toBeVisible({ timeout: 30_000 });
  if (await warnings.getByTestId('lane-warnings').isVisible())
    await warnings.getByRole('button', { name: 'Submit anyway (ignore warnings)' }).click();
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  await expect(status).toBeInViewport();
  await expect(status).toBeFocused();
  await shootBoth(page, 'first-day-lane-result', false);

  // Submitted: the sheet is on the service, leaving asks nothing.
  await page.setViewportSize(SMALL);
  await page.getByTestId('menu-toggle').click();
  await page.getByTestId('nav-samples').click();
  await expect(page).toHaveURL(/#\/samples$/);
  await expect(dialog).toHaveCount(0);
});
