/**
 * Issue 19 items 7 and 8 in the browser: Organism and Category asked once for a sheet of names
 * and barcodes; the Lane screen sends a FASTQ given by its path through the
 * desktop core's resumable upload queue (not a file picker's multipart post): the lane appears
 * among the Uploads screen's groups, created once its reads are in, and is demultiplexed. The
 * same sheet again is refused by the service for its sample names, named in the warnings
 * dialog; "Submit anyway" makes the second lane.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLane } from '../helpers/fastq-generator';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { ensureFirstAccount, TECH } from './service-api';
import { signIn } from './ui-session';
import { newSheetWith } from './sheet-grid';

test('Lane screen: a FASTQ typed by path goes through the upload queue; reused names are refused, then accepted', async ({
  page,
  laneway,
}) => {
  test.setTimeout(180_000);
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-lane-queue-'));
  const gen = generateLane({ dir, reads: 1500, samples: 3, kind: 'header', seed: Date.now() % 1000 });
  const tag = `Q${Date.now() % 100000}`;

  await signIn(page, laneway, TECH);
  // Names and barcodes only: Organism and Category are asked once for the whole sheet.
  await newSheetWith(page, gen.barcodes.map((b) => `${tag}_${b.name}\t${b.barcode}`).join('\n'));
  const prompt = page.getByTestId('sheet-metadata-prompt');
  await expect(prompt).toContainText('3 samples without Organism, 3 samples without Category');
  await expectAccessible(page);
  await prompt.getByLabel('Organism (whole sheet)').selectOption('Homo sapiens');
  await prompt.getByLabel('Category (whole sheet)').selectOption('Genomic DNA');
  await prompt.getByRole('button', { name: 'Fill the sheet' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('issue-counts')).toContainText('0 errors');
  await page.getByTestId('fastq-path').fill(gen.read1);

  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const status = submit.getByTestId('lane-status');
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  await expect(status.getByTestId('lane-totals')).toContainText('1,500 reads');

  // The same names again: the service refuses them; the dialog names them; submit anyway.
  await submit.getByLabel('Lane name').fill(`Lane ${tag} again`);
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('lane-warnings')).toContainText('already on the service', { timeout: 60_000 });
  await expect(dialog.getByTestId('lane-warnings')).toContainText(`"${tag}_S01" is already a sample on the service`);
  await dialog.getByRole('button', { name: 'Submit anyway (ignore warnings)' }).click();
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });

  // Both lanes went through the queue: the Uploads screen lists them as created lane groups.
  await page.getByTestId('nav-uploads').click();
  const groups = page.getByTestId('upload-groups');
  await expect(groups).toContainText(`Lane ${tag}`);
  await expect(groups).toContainText(`Lane ${tag} again`);
});
