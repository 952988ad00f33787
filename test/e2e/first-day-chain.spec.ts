/**
 * Issue 16 item 1: a chain chosen once (QC after a finished trimming run) must not ride along
 * into later launches. Before the fix, "Analyse 1 selected" with Adapter Trimming afterwards
 * was refused with "must be an execution of Demultiplexing" while "Chain from" showed None.
 */
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { runPipeline, shootBoth, uniqueSeed, waitForExecution } from './first-day';
import { createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('item 1: a chain from an execution does not leak into the next launch from Samples', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'c');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, uniqueSeed());
  const trim = await runPipeline(laneway.serviceUrl, token, 'Adapter Trimming', {
    name: `Trim ${tag}`,
    samples: [sample.id],
  });
  expect((await waitForExecution(laneway.serviceUrl, token, trim)).status).toBe('completed');

  await signIn(page, laneway, TECH);
  // Chain QC from the trimming run: the address carries the chain.
  await page.goto(`${laneway.origin}/#/executions/${trim}`);
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed');
  await dashboard.getByRole('button', { name: 'Chain a next pipeline' }).click();
  await expect(page).toHaveURL(new RegExp(`#/pipelines\\?upstream=${trim}$`));
  await page.getByRole('link', { name: 'FASTQ Quality Control' }).click();
  const form = page.getByTestId('launch-form');
  await expect(form.getByLabel('Chain from a completed execution').locator('option:checked')).toContainText(
    `Trim ${tag}`,
  );
  // No sample ticked: the form says the chain runs on the trimming run's samples, not "0 selected" alone.
  await expect(form.getByTestId('chained-samples')).toContainText(`it runs on its samples (${tag}_s)`);
  await expect(form.getByTestId('chained-samples')).toContainText(`Trim ${tag} (#${trim})`);

  // Later, from Samples: analyse the selected sample with Adapter Trimming.
  await page.getByTestId('nav-samples').click();
  await page.getByRole('search').getByLabel('Search').fill(tag);
  await page.getByLabel(`Select ${tag}_s`).check();
  await page.getByRole('button', { name: 'Analyse 1 selected' }).click();
  await page.getByRole('link', { name: 'Adapter Trimming' }).click();
  await expect(page).not.toHaveURL(/upstream=/);
  const again = page.getByTestId('launch-form');
  // What the select shows is what will be sent: None.
  await expect(again.getByLabel('Chain from a completed execution')).toHaveValue('');
  await again.getByLabel('Execution name').fill(`Trim again ${tag}`);
  await expectAccessible(page);
  await shootBoth(page, 'first-day-chain-none');
  await again.getByTestId('launch').click();
  await expect(page.getByTestId('error-notice')).toHaveCount(0);
  await expect(dashboard).toContainText(`Trim again ${tag}`);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
});
