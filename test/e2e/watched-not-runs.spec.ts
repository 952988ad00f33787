/**
 * A folder of FASTQs in a watched Illumina folder without the run's RunInfo.xml is left alone,
 * and the watched folder's row says so and why (before, nothing happened and nothing said why).
 * Real `laneway start --browser`, the real service and chokidar, Chromium.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { ensureFirstAccount, TECH } from './service-api';
import { signIn } from './ui-session';

test('watched folders: a folder that is not a run is named, with what a run would have', async ({ page, laneway }) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const root = mkdtempSync(join(tmpdir(), 'laneway-e2e-not-runs-'));
  const copy = join(root, 'Liver_fastqs', 'Data', 'Intensities', 'BaseCalls');
  mkdirSync(copy, { recursive: true });
  writeFileSync(join(copy, 'Liver-1_S1_L001_R1_001.fastq'), '@r1 1:N:0:1\nACGT\n+\nFFFF\n');
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-watchers').click();
  await page.getByTestId('watcher-path').fill(root);
  await page.getByRole('form', { name: 'Watch a folder' }).getByLabel('Instrument').selectOption('illumina');
  await page.getByRole('button', { name: 'Watch folder' }).click();
  const row = page.getByTestId('watchers-table').locator('tr', { hasText: root });
  await expect(row.getByTestId('not-runs')).toHaveText(
    'Left alone, not a run: Liver_fastqs (no RunInfo.xml, which an Illumina instrument writes as a run starts). Add such files on Uploads.',
  );
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('watched-not-runs'), fullPage: true });
});
