/**
 * Issue 16 items 2, 3, 4 and issue 13 part 5: ingest proposals never create a wrong sample.
 * Real `laneway start --browser`, the real service, Chromium; run folders follow the vendors'
 * layouts (test/fixtures/instruments). Screenshots at 1024x700 and 1440x900.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeBclConvertRun } from '../fixtures/instruments/bcl-convert-run';
import { writeMinknowRun } from '../fixtures/instruments/minknow-run';
import { gz, illuminaFastq } from '../fixtures/instruments/fastq-records';
import { LARGE, scrollsSideways, shootBoth, SMALL } from './first-day';
import { expect, test } from './fixtures';
import { ensureFirstAccount, samplesNamed, TECH } from './service-api';
import { openScreen, signIn } from './ui-session';
import { ageTree } from './folder-age';

async function propose(page: Page, path: string): Promise<void> {
  // The screenshots leave the window at 1024 px, where the menu is folded away.
  await openScreen(page, 'uploads');
  await page.getByTestId('ingest-paths').fill(path);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  await expect(page.getByTestId('proposal-samples')).toBeVisible();
}

test('ingest: a BCL Convert run proposes no Undetermined sample, shows its share and reports, and a row can be left out', async ({
  page,
  laneway,
}) => {
  test.slow(); // uploads through the real queue on a shared 2-core machine
  await ensureFirstAccount(laneway.serviceUrl);
  const tag = `b${Date.now() % 100000}`;
  const run = writeBclConvertRun(mkdtempSync(join(tmpdir(), 'laneway-e2e-bcl-')), `261124_A01234_${tag}_AHXXXXDSX7`);
  await signIn(page, laneway, TECH);
  await propose(page, run.dir);

  const rows = page.getByTestId('proposal-row');
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('proposal-samples')).not.toContainText(/Undetermined/i);
  // One sample across lanes: the second lane's file is joined, not a sample of its own.
  await expect(rows.first()).toContainText('Ctrl1_S1_L001_R1_001.fastq.gz');
  await expect(rows.first()).toContainText('+ 1 more lane, joined in lane order');
  const share = ((run.undeterminedReads / run.totalReads) * 100).toFixed(1);
  await expect(page.getByTestId('run-undetermined')).toContainText(`${share}% of the run's reads`);
  await expect(page.getByTestId('run-undetermined')).toContainText('kept with the run and not uploaded as a sample');
  await expect(page.getByTestId('run-demux-stats')).toContainText('Undetermined');
  await expect(page.getByTestId('run-top-unknown')).toContainText('GGGGGGGG+AGATCTCG');
  await expect(page.getByTestId('run-adapters')).toContainText('AGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT');

  const names = page.getByTestId('proposal-samples').getByRole('textbox');
  await names.nth(0).fill(`${tag}_Ctrl1`);
  await names.nth(1).fill(`${tag}_Treat1`);
  // Leave Treat1 out: the row stays, marked, and does not count for Confirm.
  await page.getByRole('checkbox', { name: `Upload ${tag}_Treat1` }).uncheck();
  await expect(rows.nth(1)).toHaveAttribute('data-excluded', 'true');
  await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await shootBoth(page, 'ingest-bcl-convert-proposal', true, { accessible: true });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByRole('button', { name: 'Confirm and upload' }).click();

  await expect(page.getByTestId('upload-groups')).toContainText(`${tag}_Ctrl1: created`, { timeout: 60_000 });
  const onService = await samplesNamed(laneway.serviceUrl, tag);
  expect(onService.map((s) => s.name)).toEqual([`${tag}_Ctrl1`]);
  expect(onService[0]!.metadata).toMatchObject({ adapter_read2: 'AGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT' });
});

test('ingest: re-adding an uploaded run says what is already on the service, links truthfully and shows the service reasons', async ({
  page,
  laneway,
}) => {
  test.slow(); // uploads through the real queue on a shared 2-core machine
  await ensureFirstAccount(laneway.serviceUrl);
  const tag = `r${Date.now() % 100000}`;
  const runName = `261124_A01234_${tag}_AHYYYYDSX7`;
  const run = writeBclConvertRun(mkdtempSync(join(tmpdir(), 'laneway-e2e-again-')), runName);
  await signIn(page, laneway, TECH);
  await propose(page, run.dir);
  const names = page.getByTestId('proposal-samples').getByRole('textbox');
  await names.nth(0).fill(`${tag}_Ctrl1`);
  await names.nth(1).fill(`${tag}_Treat1`);
  await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  await expect(page.getByTestId('upload-groups')).toContainText(`${tag}_Treat1: created`, { timeout: 60_000 });

  // The same folder again: both samples are marked before anything is sent.
  await propose(page, run.dir);
  await expect(page.getByTestId('sample-on-service')).toHaveCount(2);
  await expect(page.getByTestId('sample-existing').first()).toContainText(
    `Already on the service as sample ${tag}_Ctrl1: not uploaded or created again`,
  );
  await expect(page.getByTestId('proposal-warnings')).toContainText('2 of 2 samples are already on the service');
  await expect(page.getByRole('button', { name: 'Confirm and upload' })).toBeDisabled();
  await expect(page.getByTestId('confirm-blocked')).toHaveText(
    'Nothing to upload: every sample is left out or already on the service',
  );
  await shootBoth(page, 'ingest-already-on-service', true, { accessible: true });
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByRole('button', { name: 'Discard proposal' }).click();

  // A copy of the run elsewhere (this machine has never hashed it): the service deduplicates
  // the reads and the sample is linked, and the outcome says so, naming the kept Category.
  const copy = writeBclConvertRun(mkdtempSync(join(tmpdir(), 'laneway-e2e-copy-')), runName);
  ageTree(copy.dir, Date.now() / 1000 - 60);
  await propose(page, copy.dir);
  await names.nth(0).fill(`${tag}_Ctrl1_copy`);
  await names.nth(1).fill(`${tag}_Treat1_copy`);
  await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
  await page.getByLabel('Category (all samples)').selectOption('Control');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  const groups = page.getByTestId('upload-groups');
  await expect(groups).toContainText(`${tag}_Ctrl1_copy: linked to an existing sample`, { timeout: 60_000 });
  await expect(groups).toContainText(`Linked to the existing sample ${tag}_Ctrl1`);
  await expect(groups).toContainText('category stays "Total RNA" (you chose "Control")');
  await expect(groups).not.toContainText(`${tag}_Ctrl1_copy: created`);
  await expect(groups).toContainText(`${tag}_Treat1_copy: linked to an existing sample`);

  // A name the service would refuse is stopped before anything goes up, with the rule's reason.
  const fresh = writeBclConvertRun(
    mkdtempSync(join(tmpdir(), 'laneway-e2e-refused-')),
    `261124_A01234_${tag}_AHREFUSED7`,
  );
  // Read 2 of Ctrl1 holds other reads than read 1 (another run's file put in its place).
  for (const lane of [1, 2])
    writeFileSync(
      join(fresh.out, `Ctrl1_S1_L00${lane}_R2_001.fastq.gz`),
      gz(
        illuminaFastq({ lane, read: 2, count: lane === 1 ? 30 : 25, first: 700, index: 'ACGTACGT+TTGGCCAA', seed: 9 }),
      ),
    );
  await propose(page, fresh.dir);
  await names.nth(0).fill(`${tag}/Ctrl1`);
  await page.getByRole('checkbox', { name: `Upload Treat1` }).uncheck();
  await page.getByLabel('Organism (all samples)').selectOption('Homo sapiens');
  await page.getByLabel('Category (all samples)').selectOption('Control');
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  await expect(page.getByTestId('error-notice')).toContainText(
    `Sample name "${tag}/Ctrl1" contains "/": use letters, digits, dot, dash and underscore only`,
  );
  // With a valid name the reads go up, and the service refuses the sample: its reason shows.
  await names.nth(0).fill(`${tag}_Ctrl1_swapped`);
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  const refused = groups.locator('li', { hasText: `${tag}_Ctrl1_swapped` });
  await expect(refused).toContainText('failed', { timeout: 60_000 });
  await expect(refused).toContainText(
    'Read 1 and read 2 are not paired: pair 1 is A01234:17:HXXXXDSX7:1:1101:1000:2000 in read 1 but A01234:17:HXXXXDSX7:1:1101:1700:2700 in read 2',
  );
  await expect(refused).not.toContainText('Invalid request');
  await shootBoth(page, 'ingest-linked-and-refused', true, { accessible: true });
  expect((await samplesNamed(laneway.serviceUrl, `${tag}_Ctrl1_copy`)).length).toBe(0);
  expect((await samplesNamed(laneway.serviceUrl, `${tag}_Ctrl1_swapped`)).length).toBe(0);
});

test('runs: a watched run waiting for its FASTQ marker names it and uploads with "Upload now"', async ({
  page,
  laneway,
}) => {
  test.slow(); // uploads through the real queue on a shared 2-core machine
  await ensureFirstAccount(laneway.serviceUrl);
  const tag = `w${Date.now() % 100000}`;
  const root = mkdtempSync(join(tmpdir(), 'laneway-e2e-stall-'));
  const run = writeBclConvertRun(root, `261124_A01234_${tag}_ASTALLDSX7`, { complete: false });
  ageTree(run.dir, Date.now() / 1000 - 60);
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-watchers').click();
  await page.getByTestId('watcher-path').fill(root);
  await page.getByLabel('Instrument').selectOption('illumina');
  await page.getByLabel('Organism (every sample)').selectOption('Homo sapiens');
  await page.getByLabel('Category (every sample)').selectOption('Control');
  await page.getByRole('button', { name: 'Watch folder' }).click();
  await page.getByTestId('nav-runs').click();
  const card = page.locator('article[data-testid^="run-"]').filter({ hasText: run.dir.split('/').pop()! });
  await expect(card).toHaveAttribute('data-state', 'copying', { timeout: 30_000 });
  await expect(card.getByTestId('run-note')).toContainText(
    '12 FASTQ files present; waiting for Logs/FastqComplete.txt',
  );
  // The card's buttons stay inside it: no sideways scroll at either size.
  for (const size of [SMALL, LARGE]) {
    await page.setViewportSize(size);
    // After the resize the menu folds on the next render: wait for the layout to settle.
    await expect.poll(() => scrollsSideways(page), { message: `runs at ${size.width}` }).toBe(false);
  }
  await expect(card.getByRole('button', { name: /^Dismiss/ })).toHaveText('Dismiss');
  await shootBoth(page, 'runs-waiting-upload-now', true, { accessible: true });
  await page.setViewportSize({ width: 1024, height: 700 });
  await card.getByRole('button', { name: /^Upload now/ }).click();
  await expect(card).toHaveAttribute('data-state', /uploading|verified|registered/, { timeout: 30_000 });
  await expect(card).toHaveAttribute('data-state', 'registered', { timeout: 60_000 });
  await expect(card.getByTestId('run-undetermined')).toContainText("of the run's reads");
  await shootBoth(page, 'runs-registered-report', true, { accessible: true });
});

test('ingest: a Nanopore run without barcodes is one sample of its batches; fastq_fail is added only when asked', async ({
  laneway,
  page,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const root = mkdtempSync(join(tmpdir(), 'laneway-e2e-minknow-'));
  // ONT's output specification, as test/fixtures/instruments/minknow-run.ts lays it out.
  const run = writeMinknowRun(root, { barcoded: false, batches: 12 });
  await signIn(page, laneway, TECH);
  await propose(page, run.dir);
  const rows = page.getByTestId('proposal-samples').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('+ 11 more batches, joined in batch order');
  await page.getByTestId('include-failed').check();
  await expect(rows.first()).toContainText('+ 12 more batches, joined in batch order');
  await expect(rows).toHaveCount(1);
});
