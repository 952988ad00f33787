/**
 * Issue 16 item 12, the polish points: plurals, runtimes without "about About", groups by name,
 * dialog buttons that say what they do, no Demote for the only admin, human parameter labels,
 * typed parameters on watched folders, the dashboard's upstream execution, test-mode label and
 * progress by samples, the samples list with reads, size, source and select all, and a favicon.
 * (Q30 flagging: test/unit/qc/qc-html-q30-flag.test.ts; the token leaving the address bar:
 * first-day-addresses.spec.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { runPipeline, shootBoth, uniqueSeed, waitForExecution } from './first-day';
import { call, createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('item 12: the polish points on every screen', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'q');
  const a = await createSample(laneway.serviceUrl, token, `${tag}_a`, HUMAN_DNA, uniqueSeed());
  const b = await createSample(laneway.serviceUrl, token, `${tag}_b`, HUMAN_DNA, uniqueSeed());
  const trim = await runPipeline(laneway.serviceUrl, token, 'Adapter Trimming', {
    name: `Trim ${tag}`,
    samples: [a.id, b.id],
  });
  await waitForExecution(laneway.serviceUrl, token, trim);
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `QC ${tag}`,
    upstream_execution: trim,
    test_mode: true,
  });
  await waitForExecution(laneway.serviceUrl, token, qc);
  const group = await call<{ slug: string }>(laneway.serviceUrl, 'POST', '/api/groups/', {
    token,
    body: { name: `Bench ${tag}` },
  });

  await signIn(page, laneway, TECH);
  // A favicon.
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect((await page.request.get(new URL(icon!, page.url()).toString())).status()).toBe(200);

  // Pipelines: the runtime reads once; parameters have human labels.
  await page.getByTestId('nav-pipelines').click();
  await expect(page.getByTestId('category-Quality Control')).toContainText('About 20 seconds per million reads');
  await expect(page.getByTestId('category-Quality Control')).not.toContainText(/about About/i);
  await page.getByRole('link', { name: 'Adapter Trimming' }).click();
  await expect(page.getByLabel('Quality cutoff')).toHaveValue('20');
  await expect(page.getByLabel('Minimum length')).toBeVisible();
  await expect(page.getByTestId('launch-form')).not.toContainText('quality_cutoff');

  // Dashboard of the chained, test-mode QC: upstream, test mode, samples done.
  await page.goto(`${laneway.origin}/#/executions/${qc}`);
  const dash = page.getByTestId('execution-dashboard');
  await expect(dash.getByTestId('test-mode')).toContainText('Test mode');
  await expect(dash.getByTestId('upstream-execution')).toContainText(`execution #${trim}`);
  await expect(dash.getByTestId('execution-progress')).toHaveText('2 of 2 samples done');
  await expectAccessible(page);
  await shootBoth(page, 'first-day-dashboard');
  await dash.getByTestId('upstream-execution').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`#/executions/${trim}$`));

  // Samples: reads, size, source, select all; sharing names the group.
  await page.goto(`${laneway.origin}/#/samples`);
  await page.getByRole('search').getByLabel('Search').fill(tag);
  const table = page.getByTestId('samples-table');
  await expect(table.getByRole('row')).toHaveCount(3);
  for (const h of ['Reads', 'Size', 'Source']) await expect(table.getByRole('columnheader', { name: h })).toBeVisible();
  await expect(table.locator('tr', { hasText: `${tag}_a` })).toContainText('uploaded');
  await table.getByTestId('select-all').check();
  await expect(page.getByRole('button', { name: 'Analyse 2 selected' })).toBeEnabled();
  await table.getByTestId('select-all').uncheck();
  await expect(page.getByRole('button', { name: 'Analyse 0 selected' })).toBeDisabled();
  await table.getByRole('link', { name: `${tag}_a` }).click();
  const share = page.getByTestId('sample-detail').getByTestId('share-panel');
  await share.getByLabel('Group').selectOption(group.slug);
  await share.getByRole('button', { name: 'Share' }).click();
  await expect(share).toContainText(`Bench ${tag}: view`);
  await expect(share).not.toContainText(`${group.slug}:`);
  await expectAccessible(page);
  await shootBoth(page, 'first-day-samples');

  // Groups: "1 member"; the only admin is not offered Demote.
  await page.goto(`${laneway.origin}/#/groups`);
  await expect(page.locator('li', { hasText: `Bench ${tag}` })).toContainText('1 member');
  await expect(page.locator('li', { hasText: `Bench ${tag}` })).not.toContainText('1 members');
  await page.goto(`${laneway.origin}/#/groups/${group.slug}`);
  const detail = page.getByTestId('group-detail');
  await expect(detail.getByTestId(`member-${TECH.username}`)).toContainText('admin');
  await expect(detail.getByRole('button', { name: /^Demote/ })).toHaveCount(0);
  // Dialog buttons say what they keep and what they do.
  await detail.getByRole('button', { name: 'Delete group' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button')).toHaveText(['Keep the group', 'Delete group']);
  await dialog.getByRole('button', { name: 'Keep the group' }).click();

  // The lane editor counts "1 row".
  await page.goto(`${laneway.origin}/#/annotation`);
  await page.getByRole('button', { name: 'New blank sheet' }).click();
  await expect(page.getByTestId('sheet-meta')).toContainText('· 1 row ·');

  // Watched folders: the launched pipeline's parameters as typed, labelled fields.
  await page.goto(`${laneway.origin}/#/watchers`);
  const root = mkdtempSync(join(tmpdir(), 'laneway-polish-'));
  await page.getByTestId('watcher-path').fill(root);
  await page.getByLabel('Launch on each registered run').selectOption('Adapter Trimming');
  const params = page.getByTestId('watcher-new-launch-parameters');
  await expect(params.getByLabel('Quality cutoff')).toHaveAttribute('type', 'number');
  await expect(page.getByText('Parameters (JSON)')).toHaveCount(0);
  await params.getByLabel('Quality cutoff').fill('200');
  await expect(params).toContainText(/Quality cutoff (value )?must be at most 93/);
  await expectAccessible(page);
  await shootBoth(page, 'first-day-watcher-parameters');
});
