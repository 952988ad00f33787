/**
 * A Flow profile's screens (issue 23, docs/flow-client.md): signed in to a Flow server (another
 * Laneway's `/flow/api`), the Lane screen sends a sheet and paired multiplexed reads the Flow way
 * (annotation, then multiplexed R1 and R2, through the core's queue) and the lane's samples
 * appear; Samples, Projects, Pipelines (a launch with a typed parameter) and Executions (followed
 * to completed, its log and an output downloaded) are the same screens as on Laneway, each
 * field Flow has no equivalent for saying so where it would be.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLane } from '../helpers/fastq-generator';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, SECOND, tokenFor } from './service-api';
import { backToThisComputer, signInToFlow } from './ui-session';
import { newSheetWith } from './sheet-grid';
import { remoteServiceForFile } from './remote-service';

const remote = remoteServiceForFile();

test('a Flow profile: a lane the Flow way, then Samples, Projects, a launch with parameters and its execution', async ({
  page,
  laneway,
}) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-flow-screens-'));
  const gen = generateLane({ dir, reads: 1500, samples: 3, kind: 'header', paired: true, seed: 23 });
  const tag = `FL${Date.now() % 100000}`;

  await signInToFlow(page, laneway, `${remote.url}/flow/api`, SECOND);
  for (const screen of ['annotation', 'samples', 'projects', 'pipelines', 'executions'])
    await expect(page.getByTestId(`nav-${screen}`)).toBeVisible();
  await expect(page.getByTestId('nav-groups')).toHaveCount(0);

  // The Lane screen: the sheet's names and barcodes, Organism and Category once, the reads by path.
  await newSheetWith(page, gen.barcodes.map((b) => `${tag}_${b.name}\t${b.barcode}`).join('\n'));
  const prompt = page.getByTestId('sheet-metadata-prompt');
  await prompt.getByLabel('Organism (whole sheet)').selectOption('Homo sapiens');
  await prompt.getByLabel('Category (whole sheet)').selectOption('Genomic DNA');
  await prompt.getByRole('button', { name: 'Fill the sheet' }).click();
  await expect(page.getByTestId('issue-counts')).toContainText('0 errors');
  // Flow takes no index read files: said where they would be chosen.
  await expect(page.getByText('Index read files (I1/I2): not offered by this Flow server.')).toBeVisible();
  await page.getByTestId('fastq-path').fill(gen.read1);
  await page.getByTestId('read2-path').fill(gen.read2!);
  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();
  const status = submit.getByTestId('lane-status');
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 120_000 });
  await expect(status.getByTestId('lane-samples')).toContainText(`${tag}_S03`);
  // Flow reports no reads per sample: said there, not shown as zero.
  await expect(status.getByTestId('not-offered').first()).toContainText('not offered by this Flow server');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('flow-screens-lane'), fullPage: true });

  // Samples: the lane's samples, the list's sizes left to the sample's page, its files there.
  await page.getByTestId('nav-samples').click();
  const table = page.getByTestId('samples-table');
  await expect(table).toContainText(`${tag}_S01`);
  await expect(table).toContainText('Homo sapiens');
  await expect(page.getByText('Creating projects from this app: not offered by this Flow server.')).toBeVisible();
  await table.getByRole('link', { name: `${tag}_S01` }).click();
  const detail = page.getByTestId('sample-detail');
  await expect(detail).toContainText('_R1');
  await expect(detail).toContainText('Sharing: not offered by this Flow server.');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('flow-screens-samples'), fullPage: true });

  // Projects: one made on the Flow server, with its samples.
  const token = await tokenFor(remote.url, SECOND);
  const onServer = await call<{ items: Array<{ id: number; name: string }> }>(
    remote.url,
    'GET',
    `/api/samples/?name=${tag}&per_page=100`,
    { token },
  );
  await call(remote.url, 'POST', '/api/projects/', {
    token,
    body: {
      name: `Project ${tag}`,
      description: 'made on the Flow server',
      sample_ids: onServer.items.map((s) => s.id),
    },
  });
  await page.getByTestId('nav-projects').click();
  const projects = page.getByTestId('projects-list');
  await expect(projects).toContainText('3 samples');
  await projects.getByRole('button', { name: `Project ${tag}` }).click();
  const project = page.getByTestId('project-detail');
  await expect(project).toContainText(`${tag}_S02`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('flow-screens-project'), fullPage: true });

  // Pipelines: Adapter Trimming with a typed parameter, on one of the lane's samples.
  await page.getByTestId('nav-pipelines').click();
  await expect(page.getByTestId('category-Quality Control')).toContainText('Adapter Trimming');
  await page.getByRole('link', { name: 'Adapter Trimming' }).click();
  const form = page.getByTestId('launch-form');
  await expect(form.locator('#param-quality_cutoff')).toHaveValue('20');
  await form.locator('#param-quality_cutoff').fill('25');
  await form.getByTestId('sample-picker').getByLabel('Find samples').fill(`${tag}_S01`);
  await form.getByTestId('sample-picker').getByLabel(`${tag}_S01`).check();
  await form.getByLabel('Execution name').fill(`Trim ${tag}`);
  await expect(form.getByTestId('launch-reasons').getByRole('listitem')).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('flow-screens-launch'), fullPage: true });
  await form.getByTestId('launch').click();

  // Executions: polled to the end (a Flow server pushes nothing), the log, an output downloaded.
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard).toContainText(`Trim ${tag}`);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 120_000 });
  await expect(dashboard.getByTestId('feed-mode')).toHaveText('Finished');
  await expect(dashboard.getByTestId('outputs')).toContainText('trimmed');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dashboard
      .getByTestId('outputs')
      .getByRole('button', { name: /Download/ })
      .first()
      .click(),
  ]);
  const saved = readFileSync(await download.path());
  expect(saved.length).toBeGreaterThan(0);
  expect(download.suggestedFilename()).toMatch(/trimmed/);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('flow-screens-execution'), fullPage: true });

  // The execution on the Flow server is the launch as typed: the parameter and the sample (Flow's
  // run body has no name: the server names it, the app keeps the one typed).
  const executionId = /#\/executions\/(\d+)/.exec(page.url())?.[1];
  expect(executionId).toBeDefined();
  const run = await call<{ parameters: Record<string, unknown>; samples: Array<{ name: string }> }>(
    remote.url,
    'GET',
    `/api/executions/${executionId}`,
    { token },
  );
  expect(run.parameters).toMatchObject({ quality_cutoff: 25 });
  expect(run.samples.map((s) => s.name)).toEqual([`${tag}_S01`]);

  await page.getByTestId('nav-executions').click();
  await expect(page.getByTestId('executions-table')).toContainText(`Trim ${tag}`);
  await page.screenshot({ path: screenshotPath('flow-screens-executions'), fullPage: true });

  // Back to this computer's service.
  await backToThisComputer(page, 'Flow lab');
});
