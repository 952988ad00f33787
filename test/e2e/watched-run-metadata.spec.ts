/**
 * Issue 19 item 8 in the browser: a watched run whose sheet has no Organism or Category columns
 * (an Element AVITI run: its RunManifest has none) fails before any byte is sent, and its card
 * on Runs asks once, for the whole run, not once per sample. The technician answers; the run
 * uploads and its samples on the service carry the answer. The run folder is Bases2Fastq's
 * --split-lanes layout (test/fixtures/instruments/element-run.ts cites its sources), so the
 * samples are also the lanes joined. Real `laneway start --browser`, the real service, Chromium.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ELEMENT_FLOWCELL, ELEMENT_INSTRUMENT, writeElementRun } from '../fixtures/instruments/element-run';
import { expect, test } from './fixtures';
import { call, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';
import { ageTree } from './folder-age';
import { shootBoth, SMALL } from './first-day';

interface ServiceSample {
  name: string;
  metadata: Record<string, unknown>;
}

test('runs: a watched run without Organism and Category asks once for the whole run, and its samples carry the answer', async ({
  page,
  laneway,
}) => {
  test.slow(); // uploads four lane files through the real queue on a shared 2-core machine
  await ensureFirstAccount(laneway.serviceUrl);
  const root = mkdtempSync(join(tmpdir(), 'laneway-e2e-asked-'));
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-watchers').click();
  await page.getByTestId('watcher-path').fill(root);
  // The new folder's form (other specs of this worker may have left watched folders listed).
  await page.getByRole('form', { name: 'Watch a folder' }).getByLabel('Instrument').selectOption('element');
  // The folder is watched without Organism and Category: each run will ask for its own.
  await expect(page.getByTestId('watcher-missing-metadata')).toContainText('Without Organism and Category');
  await page.getByRole('button', { name: 'Watch folder' }).click();
  await expect(page.getByTestId('watchers-table')).toContainText(root);

  // AVITI OS and Bases2Fastq --split-lanes write the run; its copy finished a minute ago.
  const name = `20261125_AV234501_A${Date.now() % 10_000_000}`;
  const dir = writeElementRun(root, name, { layout: 'split-lanes', phix: true });
  ageTree(dir, Date.now() / 1000 - 60);
  await page
    .getByTestId('watchers-table')
    .getByRole('button', { name: `Scan now: ${root}` })
    .click();

  await page.getByTestId('nav-runs').click();
  const card = page.locator('article[data-testid^="run-"]').filter({ hasText: name });
  // It uploaded on its own as far as the check before any byte: Organism and Category are missing.
  await expect(card).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
  const prompt = card.getByTestId('run-metadata-prompt');
  await expect(prompt).toHaveCount(1);
  await expect(prompt).toContainText(
    '2 samples of this run have no Organism or Category in the sheet: choose once for the whole run.',
  );
  // One chooser each for the whole run, not one per sample; the card's plain Upload (which would
  // only fail again) gives way to the prompt's.
  await expect(prompt.getByRole('combobox')).toHaveCount(2);
  await expect(card.getByRole('button', { name: `Upload: ${name}` })).toHaveCount(0);
  const upload = prompt.getByRole('button', { name: `Upload with these values: ${name}` });
  await expect(upload).toBeDisabled();
  await prompt.getByLabel('Organism (this run)').selectOption('Mus musculus');
  await expect(upload).toBeDisabled();
  await prompt.getByLabel('Category (this run)').selectOption('Genomic DNA');
  await shootBoth(page, 'runs-asked-organism-category', true, { accessible: true, endAt: SMALL });
  await upload.click();

  await expect(card).toHaveAttribute('data-state', 'registered', { timeout: 90_000 });
  // Answered once: the prompt and the error are gone, and the card names the joined samples.
  await expect(card.getByTestId('run-metadata-prompt')).toHaveCount(0);
  await expect(card.getByRole('alert')).toHaveCount(0);
  await expect(card.getByTestId('run-samples')).toHaveText('In this run: 2 samples, paired: Liver_01, Liver_02.');
  await shootBoth(page, 'runs-asked-registered', true, { accessible: true, endAt: SMALL });

  // On the service: both samples carry the answer and where they came from.
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const samples = await call<{ items: ServiceSample[] }>(laneway.serviceUrl, 'GET', '/api/samples/?per_page=100', {
    token,
  });
  const ours = samples.items
    .filter((s) => s.metadata.run_id === name)
    .map((s) => [s.name, s.metadata.organism, s.metadata.category, s.metadata.lanes])
    .sort();
  expect(ours).toEqual([
    ['Liver_01', 'Mus musculus', 'Genomic DNA', '1+2'],
    ['Liver_02', 'Mus musculus', 'Genomic DNA', '1'],
  ]);
  expect(samples.items.find((s) => s.metadata.run_id === name)?.metadata).toMatchObject({
    instrument: `${ELEMENT_INSTRUMENT} (Element AVITI)`,
    flowcell: ELEMENT_FLOWCELL,
    sample_project: 'Hepato',
  });
  // Neither the Unassigned reads nor the PhiX control became a sample.
  expect(samples.items.filter((s) => /^(Unassigned|PhiX)/i.test(s.name))).toEqual([]);
});
