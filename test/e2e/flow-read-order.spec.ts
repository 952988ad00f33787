/**
 * On a Flow profile a paired sample's read 2 waits in the queue for read 1 (Flow needs read 1's
 * data id on read 2's chunks, docs/flow-client.md "Read 2 after read 1"); the Uploads screen says
 * so, "waits for read 1", instead of a plain "queued" that reads like a stuck queue (issue 23).
 * Read 1 is slowed by the bandwidth limit so that the wait is long enough to see; then the limit
 * goes and the sample is made.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { fastq, SECOND } from './service-api';
import { backToThisComputer, signInToFlow } from './ui-session';
import { remoteServiceForFile } from './remote-service';

const remote = remoteServiceForFile();

test("a Flow profile's read 2 shows 'waits for read 1' until read 1 is in", async ({ page, laneway }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-flow-read-order-'));
  const tag = `fo${Date.now() % 100000}`;
  const r1 = `${tag}_S1_L001_R1_001.fastq`;
  const r2 = `${tag}_S1_L001_R2_001.fastq`;
  writeFileSync(join(dir, r1), fastq(20_000, 41)); // about 2.4 MB: some seconds at 1 Mbit/s
  writeFileSync(join(dir, r2), fastq(20_000, 42));

  await signInToFlow(page, laneway, `${remote.url}/flow/api`, SECOND);

  await page.getByTestId('nav-uploads').click();
  const limit = page.getByLabel('Bandwidth limit (Mbit/s, empty for none)');
  await limit.fill('1');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('form', { name: 'Upload settings' }).getByRole('status')).toHaveText('Saved');
  try {
    await page.getByTestId('ingest-paths').fill(dir);
    await page.getByRole('button', { name: 'Propose samples' }).click();
    await page.getByTestId('proposal-samples').getByRole('textbox').fill(`${tag}_liver`);
    await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
    await page.getByLabel('Category (all samples)').selectOption('Genomic DNA');
    await page.getByRole('button', { name: 'Confirm and upload' }).click();

    const uploads = page.getByTestId('uploads-table');
    const read2 = uploads.locator('tr', { hasText: r2 });
    await expect(read2).toHaveAttribute('data-state', 'queued');
    await expect(read2.locator('.status-pill')).toHaveText('waits for read 1');
    await expect(uploads.locator('tr', { hasText: r1 }).locator('.status-pill')).not.toHaveText('waits for read 1');
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('flow-read2-waits'), fullPage: true });
  } finally {
    await limit.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
  }
  // Read 1 in, read 2 goes and the sample is made on the Flow server.
  await expect(page.getByTestId('uploads-table').locator('tr[data-state="completed"]', { hasText: tag })).toHaveCount(
    2,
    { timeout: 120_000 },
  );
  await expect(page.getByTestId('upload-groups')).toContainText(`${tag}_liver: created`, { timeout: 30_000 });
  // The next spec in this worker shares the app: leave it on this computer's service.
  await backToThisComputer(page, 'Flow lab');
});
