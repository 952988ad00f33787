/**
 * Issue 16 item 5: the Uploads screen's numbers are true. Queued files are listed and counted
 * in the total from the start; the speed is shown in the unit the limit was typed in (Mbit/s)
 * and stays within it; paused shows paused and idle shows idle (no speed, no ETA, nothing
 * active). The core's side (acknowledged bytes, resume from what the service holds) is
 * test/integration/core/upload-progress-truth.test.ts.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { shootBoth, uniqueSeed } from './first-day';
import { ensureFirstAccount, fastq, TECH } from './service-api';
import { signIn } from './ui-session';

test('item 5: queued files counted, speed in Mbit/s within the limit, paused and idle say so', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-truth-'));
  const tag = `n${Date.now() % 100000}`;
  const names = ['a', 'b', 'c'].map((x) => `${tag}_${x}.fastq`);
  for (const n of names) writeFileSync(join(dir, n), fastq(5000, uniqueSeed())); // about 600 kB each
  const total = names.reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-uploads').click();
  const settings = page.getByRole('form', { name: 'Upload settings' });
  await settings.getByLabel('Parallel uploads').fill('1');
  await settings.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('2');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('status')).toHaveText('Saved');
  try {
    await page.getByTestId('ingest-paths').fill(dir);
    await page.getByRole('button', { name: 'Propose samples' }).click();
    // Focus moves to the proposal, whose actions come first.
    await expect(page.getByRole('heading', { name: /^Proposed upload: 3 samples/ })).toBeFocused();
    await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
    await page.getByLabel('Category (all samples)').selectOption('DNA');
    await page.getByRole('button', { name: 'Confirm and upload' }).click();

    const table = page.getByTestId('uploads-table');
    const rows = names.map((n) => table.locator('tr', { hasText: n }));
    // All three are listed at once, two of them queued, and the total counts them all.
    for (const r of rows) await expect(r).toBeVisible();
    await expect(table.locator('tr[data-state="queued"]', { hasText: tag })).not.toHaveCount(0);
    const overall = page.getByTestId('upload-overall');
    const totalText = new RegExp(`of ${(total / 1e6).toFixed(1)} MB on the service`);
    await expect(overall.getByTestId('overall-bytes')).toHaveText(totalText);
    await expect(overall.getByTestId('overall-limit')).toContainText('limit 2 Mbit/s');

    // Once a file is acknowledged, the speed reads in Mbit/s and within the limit (some slack for bursts).
    let speed = 0;
    await expect
      .poll(
        async () => {
          const m = (await overall.getByTestId('overall-state').textContent())?.match(/([\d.]+) Mbit\/s/);
          speed = m ? Number(m[1]) : 0;
          return speed;
        },
        { timeout: 20_000, intervals: [100] },
      )
      .toBeGreaterThan(0);
    expect(speed).toBeGreaterThan(0.5);
    expect(speed).toBeLessThanOrEqual(3);
    await expectAccessible(page);
    await shootBoth(page, 'first-day-uploads-active');

    // Paused: no speed, no ETA, nothing active.
    await page.getByRole('button', { name: 'Pause all' }).click();
    await expect(overall).toHaveAttribute('data-state', 'paused');
    await expect(overall.getByTestId('overall-state')).toHaveText('Paused');
    for (const r of rows) await expect(r.getByTestId('job-speed')).toHaveText(/^(—|)$/);
    await page.getByRole('button', { name: 'Resume all' }).click();

    // All done: idle, the bytes complete.
    for (const r of rows) await expect(r).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
    await expect(overall).toHaveAttribute('data-state', 'idle');
    await expect(overall.getByTestId('overall-state')).toHaveText('Idle: nothing is uploading');
    await expect(overall).not.toContainText('ETA');
    await expect(overall).not.toContainText('active');
    await shootBoth(page, 'first-day-uploads-idle');
  } finally {
    await settings.getByLabel('Parallel uploads').fill('3');
    await settings.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
  }
});
