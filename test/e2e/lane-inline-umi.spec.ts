/**
 * The Lane screen demultiplexes an inline lane with UMIs to the generator's truth: barcodes of
 * 6, 7 and 8 bases behind 3 UMI bases (and 2 after) typed as bare bases, so the detected design
 * has no layout; the barcode check then finds them 3 bases in, as the upload would, and asks for
 * the layout to keep the UMIs; with the layout field set, the check matches, the lane is submitted, and
 * every read of every sample (downloaded from the service) is where the truth says. A paired lane
 * of Ultraplex's 5'+3' design (iCLIP): the check reads the 3' barcode at read 2's start, as the
 * upload does, and shows the counts Ultraplex and `laneway demux` give.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDesignLane } from '../helpers/design-lane-generator';
import { generateUltraplexLane } from '../helpers/ultraplex-lane-generator';
import { ULTRAPLEX_CASES } from '../integration/demux/ultraplex-cases';
import { compareWithTruth } from '../helpers/fastq-generator';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, createSample, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { uniqueSeed } from './first-day';
import { signIn } from './ui-session';
import { newSheetWith } from './sheet-grid';

test('Lane screen: an inline lane with UMIs of mixed lengths, its placement found, layout and mismatches fields, to the truth', async ({
  page,
  laneway,
}) => {
  test.setTimeout(180_000);
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-umi-'));
  const gen = generateDesignLane({ dir, kind: 'mixed5', reads: 3000, samples: 6, seed: 61, readLength: 80 });
  const tag = `U${Date.now() % 100000}`;
  // The sheet gives bare barcodes: the UMI positions come from the layout field.
  const rows = gen.samples.map((s) => [`${tag}_${s.name}`, s.cell.replace(/N/g, '')]);

  // An earlier selection: Open the samples must not keep it ticked beside the lane's samples.
  const older = `${tag}_older`;
  await createSample(
    laneway.serviceUrl,
    await tokenFor(laneway.serviceUrl, TECH),
    older,
    { organism: 'Homo sapiens', category: 'Genomic DNA' },
    uniqueSeed(),
  );
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-samples').click();
  await page.getByRole('checkbox', { name: `Select ${older}` }).check();
  await newSheetWith(page, rows.map(([n, b]) => `${n}\t${b}\tHomo sapiens\tGenomic DNA`).join('\n'));
  await expect(page.getByTestId('issue-counts')).toContainText('0 errors');
  await page.getByTestId('open-fastq').setInputFiles(gen.read1);
  const settings = page.getByTestId('demux-settings');
  await expect(settings.getByTestId('detected-layout')).toContainText('plain barcodes');

  // Without the layout most reads carry no barcode at their start; the check then chooses the
  // placement from the reads as the upload does (3 bases in) and counts there. It once warned
  // that nearly every read would be undetermined, and the upload then demultiplexed them all.
  const check = page.getByTestId('barcode-check');
  await check.getByRole('button', { name: /Check the first/ }).click();
  const detected = check.getByTestId('barcode-detected');
  await expect(detected).toContainText("inline at the 5' end of read 1, after 3 bases");
  await expect(detected).toContainText('give the layout');
  await expect(check.getByTestId('undetermined-warning')).toHaveCount(0);
  const summary = await check.getByTestId('barcode-check-summary').innerText();
  expect(Number(summary.split(' of ')[0]!.replace(/,/g, ''))).toBeGreaterThan(2700);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('lane-umi-placement-found'), fullPage: true });
  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);

  // The layout field: the X run stands for each row's barcode, 6, 7 or 8 bases. Its placeholder
  // says what empty means; it must not look like a value typed in.
  await expect(settings.getByTestId('layout-input')).toHaveAttribute('placeholder', /^empty: /);
  await settings.getByTestId('layout-input').fill('NNNXXXXXXNN');
  // One click right after typing checks with the new layout (it showed the old result until
  // clicked twice): the button waits for the sheet to be read again, the old result is gone.
  await expect(check.getByTestId('barcode-check-summary')).toHaveCount(0);
  await check.getByRole('button', { name: /Check the first/ }).click();
  await expect(check.getByTestId('barcode-check-summary')).toContainText(/of 3,000 reads match a sample/);
  await expect(check.getByTestId('undetermined-warning')).toHaveCount(0);
  await expect(settings.getByTestId('detected-layout')).toContainText('NNNXXXXXXXXNN | NNNXXXXXXXNN | NNNXXXXXXNN');
  await expect(settings.getByTestId('mismatches-allowed')).toContainText('In use: 1. The barcodes allow at most: 1');
  await check.getByRole('button', { name: /Check the first/ }).click();
  await expect(check.getByTestId('barcode-check-summary')).toContainText(/of 3,000 reads match a sample/);
  await expect(check.getByTestId('undetermined-warning')).toHaveCount(0);

  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const status = submit.getByTestId('lane-status');
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const result = status.getByTestId('lane-result');
  await expect(result.getByTestId('lane-totals')).toContainText('3,000 reads');
  await expect(result.getByTestId('lane-totals')).toContainText('mismatches allowed 1 (at most 1)');
  await expect(result.getByTestId('undetermined-warning')).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('lane-umi-demultiplexed'), fullPage: true });
  await result.getByRole('button', { name: 'Open the samples' }).click();
  await expect(page.getByRole('button', { name: `Analyse ${gen.samples.length} selected` })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Select ${older}` })).not.toBeChecked();

  // Every read where the truth says: each sample's reads and Undetermined, from the service.
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const lanes = await call<{ items: Array<{ id: number; name: string }> }>(laneway.serviceUrl, 'GET', '/api/lanes/', {
    token,
  });
  const id = lanes.items.find((l) => l.name === `Lane ${tag}`)!.id;
  const lane = await call<{
    samples: Array<{ name: string; sample_id: number }>;
    undetermined_data: number[];
  }>(laneway.serviceUrl, 'GET', `/api/lanes/${id}`, { token });
  const download = async (dataId: number, sample: string) => {
    const res = await fetch(new URL(`/api/data/${dataId}/download`, laneway.serviceUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    const path = join(dir, `${dataId}.fastq`);
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    return { sample, path };
  };
  const outputs = [];
  for (const s of lane.samples) {
    const sample = await call<{ read1: number }>(laneway.serviceUrl, 'GET', `/api/samples/${s.sample_id}`, { token });
    outputs.push(await download(sample.read1, s.name.replace(`${tag}_`, '')));
  }
  outputs.push(await download(lane.undetermined_data[0]!, 'Undetermined'));
  const cmp = compareWithTruth(gen.truth, outputs);
  expect(cmp.examples).toEqual([]);
  expect(cmp.disagreements).toBe(0);
});

test("Lane screen: a paired 5'+3' lane's barcode check reads the 3' barcode at read 2's start", async ({
  page,
  laneway,
}) => {
  test.setTimeout(120_000);
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-iclip-'));
  // Paired iCLIP-like lane (5' NNNXXXXXNN, 3' XXXXXNNN): real Ultraplex -i2 gave these counts.
  const c = ULTRAPLEX_CASES.find((k) => k.lane.paired && k.lane.adapter)!;
  const gen = generateUltraplexLane({ ...c.lane, dir });
  const tag = `P${Date.now() % 100000}`;
  await signIn(page, laneway, TECH);
  await newSheetWith(
    page,
    gen.samples.map((s) => `${tag}_${s.name}\t${s.five}...${s.three}\tHomo sapiens\tGenomic DNA`).join('\n'),
  );
  await expect(page.getByTestId('issue-counts')).toContainText('0 errors');
  await page.getByTestId('open-fastq').setInputFiles(gen.read1);
  await page.getByTestId('open-read2').setInputFiles(gen.read2!);
  const settings = page.getByTestId('demux-settings');
  await settings.getByTestId('mismatches-input').fill('1,1');
  await expect(settings.getByTestId('mismatches-allowed')).toContainText("In use: 5' 1, 3' 1");
  const check = page.getByTestId('barcode-check');
  await check.getByRole('button', { name: /Check the first/ }).click();
  const undetermined = c.recorded.Undetermined!;
  await expect(check.getByTestId('barcode-check-summary')).toContainText(
    `${(c.lane.reads - undetermined).toLocaleString('en-US')} of ${c.lane.reads.toLocaleString('en-US')} reads match a sample`,
  );
  await expect(check.getByTestId('barcode-check-three-prime')).toContainText('start of read 2');
  await expect(check.getByTestId('undetermined-warning')).toHaveCount(0);
  const rows = check.getByTestId('barcode-expected').locator('tbody tr');
  await expect(rows).toHaveCount(gen.samples.length);
  for (const [i, s] of gen.samples.entries()) {
    await expect(rows.nth(i).locator('td').nth(3)).toHaveText(c.recorded[s.name]!.toLocaleString('en-US'));
  }
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('lane-paired-five-three-check'), fullPage: true });

  // Submitted: the service's only warning is the sheet's (5-base barcodes are short), none about
  // undetermined reads; then it assigns what the check showed.
  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('The sheet has warnings');
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  await expect(dialog.getByRole('listitem')).toContainText('Barcodes of 5 bases are short');
  await dialog.getByRole('button', { name: /Submit anyway/ }).click();
  const status = submit.getByTestId('lane-status');
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 90_000 });
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const lanes = await call<{ items: Array<{ id: number; name: string }> }>(laneway.serviceUrl, 'GET', '/api/lanes/', {
    token,
  });
  const id = lanes.items.find((l) => l.name === `Lane ${tag}`)!.id;
  const lane = await call<{ samples: Array<{ name: string; reads: number | null }>; undetermined_reads: number }>(
    laneway.serviceUrl,
    'GET',
    `/api/lanes/${id}`,
    { token },
  );
  expect(Object.fromEntries(lane.samples.map((s) => [s.name.replace(`${tag}_`, ''), s.reads]))).toEqual(
    Object.fromEntries(gen.samples.map((s) => [s.name, c.recorded[s.name]])),
  );
  expect(lane.undetermined_reads).toBe(undetermined);
});
