import { expectAccessible } from './axe';
import { uniqueSeed } from './first-day';
import { expect, screenshotPath, test } from './fixtures';
import { createSample, HUMAN_DNA, TECH, technician, uploadFile } from './service-api';
import { signIn } from './ui-session';

test('pipelines: catalogue by category, generated launch form, field validation, why Launch is disabled, launch', async ({
  page,
  laneway,
}) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'p');
  await createSample(laneway.serviceUrl, token, `${tag}_qc`, HUMAN_DNA, 4);

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-pipelines').click();
  await expect(page.getByTestId('category-Quality Control')).toContainText('Adapter Trimming');
  await expect(page.getByTestId('category-Quality Control')).toContainText('FASTQ Quality Control');
  // Demultiplexing prepares a run's reads: it is filed under Sequencing, not DNA Analysis.
  await expect(page.getByTestId('category-Sequencing')).toContainText('Demultiplexing');
  await expect(page.getByTestId('category-DNA Analysis')).not.toContainText('Demultiplexing');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('pipelines-catalogue'), fullPage: true });

  await page.getByRole('link', { name: 'Adapter Trimming' }).click();
  const form = page.getByTestId('launch-form');
  // Each parameter type gets its control, with its default.
  await expect(form.locator('#param-quality_cutoff')).toHaveAttribute('type', 'number');
  await expect(form.locator('#param-quality_cutoff')).toHaveValue('20');
  await expect(form.locator('#param-compress')).toBeChecked();
  await expect(form.locator('#param-error_rate')).toHaveAttribute('step', 'any');

  // A value out of bounds: the message sits on the field, and Launch says why it is disabled.
  await form.locator('#param-quality_cutoff').fill('200');
  await expect(form.getByTestId('param-quality_cutoff')).toContainText('must be at most 93');
  await form.locator('#param-adapter').fill('bad/adapter!');
  // In words, not as the pattern [A-Za-z0-9 _.-]{1,64}.
  await expect(form.getByTestId('param-adapter')).toContainText('Adapter is not in the form its help describes');
  await expect(form.getByTestId('param-adapter')).not.toContainText('[A-Za-z0-9');
  await expect(form.getByTestId('launch-reasons')).toContainText(
    'Parameter Adapter is not in the form its help describes.',
  );
  const launch = form.getByTestId('launch');
  await expect(launch).toBeDisabled();
  const reasons = form.getByTestId('launch-reasons');
  await expect(reasons).toContainText('Select at least 1 sample');
  await expect(reasons).toContainText('Parameter Quality cutoff');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('launch-form-invalid'), fullPage: true });

  await form.locator('#param-quality_cutoff').fill('25');
  await form.locator('#param-adapter').fill('auto');
  await form.getByTestId('sample-picker').getByLabel('Find samples').fill(tag);
  await form.getByTestId('sample-picker').getByLabel(`${tag}_qc`).check();
  await form.getByLabel('Priority').selectOption('high');
  await form.getByLabel('Execution name').fill(`Trim ${tag}`);
  await expect(reasons.getByRole('listitem')).toHaveCount(0);
  await expect(launch).toBeEnabled();
  await launch.click();

  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard).toContainText(`Trim ${tag}`);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
});

test('pipelines: chain quality control from the completed trimming execution', async ({ page, laneway }) => {
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-executions').click();
  await page
    .getByTestId('executions-table')
    .getByRole('button', { name: /^Trim p/ })
    .first()
    .click();
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed');
  await dashboard.getByRole('button', { name: 'Chain a next pipeline' }).click();
  await page.getByRole('link', { name: 'FASTQ Quality Control' }).click();
  const form = page.getByTestId('launch-form');
  const upstream = form.getByLabel('Chain from a completed execution');
  await expect(upstream.locator('option:checked')).toContainText('Trim p');
  await form.getByLabel('Execution name').fill('QC after trimming');
  await expect(form.getByTestId('launch-reasons').getByRole('listitem')).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('launch-chained'), fullPage: true });
  await form.getByTestId('launch').click();
  await expect(dashboard).toContainText('QC after trimming');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
});

test('pipelines: a FASTQ file parameter lists only FASTQ records and offers "— choose a FASTQ file —"', async ({
  page,
  laneway,
}) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'pf');
  // The caller has a FASTQ file (the sample's reads) and a reference: only the reads are offered
  // as the lane to demultiplex.
  await createSample(laneway.serviceUrl, token, `${tag}_in`, HUMAN_DNA, uniqueSeed());
  await uploadFile(laneway.serviceUrl, token, `${tag}_ref.fa`, Buffer.from('>chr1\nACGTACGTACGT\n'));
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('link', { name: 'Demultiplexing' }).click();
  const input = page.getByTestId('launch-form').locator('#param-input');
  await expect(input.locator('option').first()).toHaveText('— choose a FASTQ file —');
  // It runs on the lane chosen here, never on selected samples: there is no sample picker.
  await expect(page.getByTestId('no-samples-note')).toBeVisible();
  await expect(page.getByTestId('sample-picker')).toHaveCount(0);
  await expect(input.locator('option', { hasText: `${tag}_in` })).toHaveCount(1);
  await expect(input.locator('option', { hasText: `${tag}_ref.fa` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Upload a FASTQ file for input', exact: true })).toBeVisible();
});

test('pipelines: the Demultiplexing sheet is uploaded from the launch form, checked, and chosen', async ({
  page,
  laneway,
}) => {
  const { tag } = await technician(laneway.serviceUrl, 'ps');
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('link', { name: 'Demultiplexing' }).click();
  const picker = page.getByTestId('record-picker-annotation');
  // A sheet without the columns a run needs is refused with the reason, and nothing is chosen.
  await page.getByTestId('record-upload-annotation').setInputFiles({
    name: `${tag}-bare.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from('Sample Name,Barcode\nA1,ACGTAC\n'),
  });
  await expect(picker.getByTestId('sheet-issues')).toContainText('Row 1, Organism: The sheet has no "Organism" column');
  await expect(picker.getByTestId('error-notice')).toContainText('Correct the sheet and upload it again.');
  await expect(picker.locator('select')).toHaveValue('');
  await page.getByTestId('record-upload-annotation').setInputFiles({
    name: `${tag}-lane.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from('Sample Name,Barcode,Organism,Category\nA1,ACGTAC,Homo sapiens,Genomic DNA\n'),
  });
  await expect(picker.locator('select option:checked')).toContainText(`${tag}-lane.csv (csv,`);
  await expect(picker.getByTestId('error-notice')).toHaveCount(0);
});

test('pipelines: run options the service refuses are marked on their fields, and cleared when changed', async ({
  page,
  laneway,
}) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'pr');
  await createSample(laneway.serviceUrl, token, `${tag}_r`, HUMAN_DNA, uniqueSeed());
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('link', { name: 'FASTQ Quality Control' }).click();
  const form = page.getByTestId('launch-form');
  await form.getByTestId('sample-picker').getByLabel('Find samples').fill(tag);
  await form.getByTestId('sample-picker').getByLabel(`${tag}_r`).check();
  await form.getByLabel('Memory').fill('lots');
  await form.getByLabel('Time limit').fill('forever');
  await form.getByTestId('launch').click();
  await expect(form.getByTestId('error-notice')).toHaveAttribute('data-code', 'VALIDATION_ERROR');
  // The notice says "correct the fields marked on the form": they are marked.
  const memory = form.locator('label', { has: page.getByLabel('Memory') });
  const limit = form.locator('label', { has: page.getByLabel('Time limit') });
  await expect(memory).toHaveClass(/field-invalid/);
  await expect(memory).toContainText('a size such as 8G');
  await expect(limit).toHaveClass(/field-invalid/);
  // The first one marked takes the focus, as a refused parameter does.
  await expect(form.getByLabel('Memory')).toBeFocused();
  await form.getByLabel('Memory').fill('2G');
  await expect(memory).not.toHaveClass(/field-invalid/);
  await expect(limit).toHaveClass(/field-invalid/);
});
