/**
 * A run folder whose one read file was cut short by an interrupted copy (the first bytes of a
 * whole .fastq.gz, as `cp` leaves them when the drive is pulled): the other sample is created,
 * this one fails with the file named and why, and after the whole file is copied again, Retry
 * creates it. Real `laneway start --browser`, the real queue and service, Chromium.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gz, illuminaFastq } from '../fixtures/instruments/fastq-records';
import { expect, test } from './fixtures';
import { openScreen, signIn } from './ui-session';

test('uploads: a .fastq.gz cut short fails with its reason and its sample waits; copied again whole, Retry creates it', async ({
  page,
  laneway,
}) => {
  test.slow(); // uploads through the real queue on a shared 2-core machine
  const tag = `cut${Date.now() % 100000}`;
  const dir = mkdtempSync(join(tmpdir(), 'laneway-e2e-cut-'));
  const file = (sample: string, n: number, read: 1 | 2) =>
    join(dir, `${tag}${sample}_S${n}_L001_R${read}_001.fastq.gz`);
  const reads = (n: number, read: 1 | 2) =>
    gz(illuminaFastq({ lane: 1, read, count: 4000, index: 'ACGTACGT', seed: n * 10 + read }));
  for (const [sample, n] of [
    ['Liver', 1],
    ['Kidney', 2],
  ] as const)
    for (const read of [1, 2] as const) writeFileSync(file(sample, n, read), reads(n, read));
  const whole = reads(2, 2);
  const cut = file('Kidney', 2, 2);
  writeFileSync(cut, whole.subarray(0, whole.length - 300));

  await signIn(page, laneway);
  await openScreen(page, 'uploads');
  await page.getByTestId('ingest-paths').fill(dir);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  await expect(page.getByTestId('proposal-samples')).toBeVisible();
  await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();

  const groups = page.getByTestId('upload-groups');
  await expect(groups).toContainText(`${tag}Liver: created`, { timeout: 60_000 });
  await expect(groups).toContainText(`${tag}Kidney: failed`, { timeout: 60_000 });
  await expect(groups).toContainText(`${cut} is cut short: its gzip data stops in the middle`);
  const row = page.getByTestId('uploads-table').locator('tr', { hasText: `${tag}Kidney_S2_L001_R2_001.fastq.gz` });
  await expect(row).toContainText('failed');
  await expect(row).toContainText('Copy it again from the instrument');
  await page.screenshot({ path: join('test', 'e2e', 'screenshots', 'uploads-cut-gzip.png') });

  writeFileSync(cut, whole);
  await row.getByRole('button', { name: 'Retry' }).click();
  await expect(groups).toContainText(`${tag}Kidney: created`, { timeout: 60_000 });
  await expect(row).toContainText('completed');
});
