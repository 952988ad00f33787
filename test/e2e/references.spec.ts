import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plantedGenome } from '../helpers/planted-genome';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, HUMAN_DNA, TECH, technician, uploadFile } from './service-api';
import { signIn } from './ui-session';

test("launch form: a file parameter lists the caller's references by name, uploads one from the form, and Read Alignment runs with them", async ({
  page,
  laneway,
}) => {
  test.setTimeout(180_000);
  const { token, tag } = await technician(laneway.serviceUrl, 'r');
  const genome = plantedGenome(Date.now() % 1000, 8000, 10);
  const fasta = await uploadFile(laneway.serviceUrl, token, `${tag}-genome.fa`, Buffer.from(genome.fasta));
  const reads = await uploadFile(laneway.serviceUrl, token, `${tag}_R1.fastq`, Buffer.from(genome.reads(800, tag)));
  const sample = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/samples/', {
    token,
    body: { name: `${tag}_S1`, read1: reads, metadata: HUMAN_DNA },
  });
  // A FASTQ record exists too: the reference list must not offer it.
  const gtfFile = join(laneway.home, `${tag}-genes.gtf`);
  writeFileSync(gtfFile, genome.gtf);

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('link', { name: 'Read Alignment' }).click();
  const form = page.getByTestId('launch-form');
  const reference = form.locator('#param-reference');
  await expect(reference.locator('option', { hasText: `${tag}-genome.fa` })).toHaveCount(1);
  await expect(reference.locator('option', { hasText: `${tag}_R1.fastq` })).toHaveCount(0);
  // Picked by its name, as a user does.
  const label = (await reference.locator('option', { hasText: `${tag}-genome.fa` }).textContent())!;
  expect(label).toMatch(new RegExp(`^${tag}-genome\\.fa \\(fasta, [\\d.]+ KB, #${fasta}\\)$`));
  await reference.selectOption({ label });
  await expect(reference).toHaveValue(String(fasta));

  // The annotation is optional: its empty choice reads "none" (it read "— no GTF, GFF3, BED
  // files yet: upload one —", as if one were missing, cut off by the select's width).
  const annotation = form.locator('#param-annotation');
  await expect(annotation.locator('option').first()).toHaveText(/^— none( \(upload one to use it\))? —$/);
  // The annotation is uploaded from the form itself and selected once it is in.
  await form.getByTestId('record-upload-annotation').setInputFiles(gtfFile);
  await expect(annotation.locator('option:checked')).toContainText(`${tag}-genes.gtf (gtf,`, { timeout: 20_000 });
  await form.getByTestId('sample-picker').getByLabel('Find samples').fill(tag);
  await form.getByTestId('sample-picker').getByLabel(`${tag}_S1`).check();
  await form.getByLabel('Execution name').fill(`Align ${tag}`);
  await expect(form.getByTestId('launch-reasons').getByRole('listitem')).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('launch-form-reference-picker'), fullPage: true });

  await form.getByTestId('launch').click();
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard).toContainText(`Align ${tag}`, { timeout: 30_000 });
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 150_000 });
  // What the form sent: the picked records, by id.
  const executions = await call<{ items: Array<{ id: number; name: string }> }>(
    laneway.serviceUrl,
    'GET',
    '/api/executions/?per_page=100',
    { token },
  );
  const run = executions.items.find((x) => x.name === `Align ${tag}`)!;
  const detail = await call<{ parameters: Record<string, number>; samples: Array<{ id: number }> }>(
    laneway.serviceUrl,
    'GET',
    `/api/executions/${run.id}`,
    { token },
  );
  expect(detail.parameters.reference).toBe(fasta);
  expect(typeof detail.parameters.annotation).toBe('number');
  expect(detail.samples.map((s) => s.id)).toEqual([sample.id]);

  // Chained after these alignments, Variant Calling shows their reference chosen: the BAMs fit no
  // other, and the service refuses another one.
  await page.getByRole('button', { name: 'Chain a next pipeline' }).click();
  // Only the pipelines that take an alignment's outputs are offered (QC or trimming here ran on
  // the samples' own reads while the page said "on the outputs").
  await expect(page.getByTestId('chain-note')).toContainText(
    `Choose the pipeline to run on the outputs of Align ${tag} (#${run.id}, Read Alignment): these take them.`,
  );
  await expect(page.getByRole('link', { name: 'Variant Calling' })).toHaveCount(1);
  for (const other of ['FASTQ Quality Control', 'Adapter Trimming', 'Read Alignment', 'Demultiplexing'])
    await expect(page.getByRole('link', { name: other, exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Variant Calling' }).click();
  const chained = page.getByTestId('launch-form');
  await expect(chained.getByLabel('Chain from a completed execution').locator('option:checked')).toContainText(
    `Align ${tag}`,
  );
  await expect(chained.locator('#param-reference')).toHaveValue(String(fasta));
  await expect(chained.getByTestId('launch-reasons').getByRole('listitem')).toHaveCount(0);
});
