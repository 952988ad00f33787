/**
 * Issue 16 item 8: the layout holds from 1024x700 to 1920x1080. No screen scrolls sideways
 * (the upload proposal included), the pairing buttons stay inside the proposal, the menu folds
 * away at 1024 and opens on request, and the watched-folder buttons do not repeat the path.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { LARGE, scrollsSideways, shootBoth, SMALL, uniqueSeed } from './first-day';
import { ensureFirstAccount, fastq, TECH } from './service-api';
import { signIn } from './ui-session';

const SCREENS = [
  'runs',
  'uploads',
  'watchers',
  'annotation',
  'samples',
  'projects',
  'groups',
  'pipelines',
  'executions',
  'notifications',
  'account',
  'settings',
];

test('item 8: no sideways scroll from 1024x700 to 1920x1080, folding menu, buttons inside their cards', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-layout-'));
  const tag = `w${Date.now() % 100000}`;
  // Long names, as instruments write them.
  const stem = `${tag}_Patient-0042-Liver-Biopsy-Replicate-3_S12_L004`;
  writeFileSync(join(dir, `${stem}_R1_001.fastq`), fastq(40, uniqueSeed()));
  writeFileSync(join(dir, `${stem}_R2_001.fastq`), fastq(40, uniqueSeed()));

  await page.setViewportSize(SMALL);
  await signIn(page, laneway, TECH);
  // At 1024 the menu is folded away and opens on request.
  const toggle = page.getByTestId('menu-toggle');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.getByTestId('nav-uploads').click();
  // A choice folds it again, so the screen keeps its width.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

  for (const size of [SMALL, LARGE, { width: 1920, height: 1080 }]) {
    await page.setViewportSize(size);
    for (const screen of SCREENS) {
      await page.goto(`${laneway.origin}/#/${screen}`);
      await expect(page.locator('#main h2').first()).toBeVisible();
      expect(await scrollsSideways(page), `${screen} at ${size.width}x${size.height}`).toBe(false);
    }
  }
  await page.setViewportSize(LARGE);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // The upload proposal with long names at 1024 and 1440.
  await page.goto(`${laneway.origin}/#/uploads`);
  await page.getByTestId('ingest-paths').fill(dir);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  const proposal = page.getByTestId('proposal-samples');
  await expect(proposal).toContainText(`${stem}_R1_001.fastq`);
  for (const size of [SMALL, LARGE]) {
    await page.setViewportSize(size);
    expect(await scrollsSideways(page), `proposal at ${size.width}`).toBe(false);
    const card = (await page.getByTestId('proposal-region').boundingBox())!;
    for (const name of ['Swap reads', 'Unpair']) {
      const b = (await proposal.getByRole('button', { name: new RegExp(`^${name}`) }).boundingBox())!;
      expect(b.x, `${name} inside the proposal at ${size.width}`).toBeGreaterThanOrEqual(card.x);
      expect(b.x + b.width).toBeLessThanOrEqual(card.x + card.width + 1);
    }
  }
  await expectAccessible(page);
  await shootBoth(page, 'first-day-proposal');
  await page.getByRole('button', { name: 'Discard proposal' }).click();

  // A watched folder: its buttons say what they do, the path once in the row.
  await page.goto(`${laneway.origin}/#/watchers`);
  const root = mkdtempSync(join(tmpdir(), 'laneway-watch-layout-with-a-long-folder-name-'));
  await page.getByTestId('watcher-path').fill(root);
  await page.getByLabel('Instrument').selectOption('generic');
  await page.getByLabel('Organism (every sample)').selectOption('Homo sapiens');
  await page.getByLabel('Category (every sample)').selectOption('Genomic DNA');
  await page.getByRole('button', { name: 'Watch folder' }).click();
  const row = page.getByTestId('watchers-table').locator('tr', { hasText: root });
  await expect(row).toBeVisible();
  const texts = await row.getByRole('button').allInnerTexts();
  expect(texts.length).toBeGreaterThan(2);
  for (const t of texts) expect(t).not.toContain(root);
  await expect(row.getByRole('button', { name: `Scan now: ${root}` })).toBeVisible();
  for (const size of [SMALL, LARGE]) {
    await page.setViewportSize(size);
    expect(await scrollsSideways(page), `watchers at ${size.width}`).toBe(false);
  }
  await expectAccessible(page);
  await shootBoth(page, 'first-day-watchers');
  await row.getByRole('button', { name: `Remove: ${root}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop watching' }).click();
  await expect(row).toHaveCount(0);
});
