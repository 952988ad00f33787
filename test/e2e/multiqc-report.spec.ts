/**
 * Issue 15 part 4 in the renderer: a project's page builds a MultiQC report over its samples'
 * QC outputs with the service's real `multiqc`, shows it in the app and downloads it; a project
 * with no outputs shows the service's reason (409) rather than a generic error.
 */
import { readFile } from 'node:fs/promises';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { postTinyLane, runPipeline, shootBoth, uniqueSeed, waitForExecution } from './first-day';
import { call, createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('a project builds a MultiQC report from its QC outputs; an empty one gives the reason', async ({
  page,
  laneway,
}) => {
  test.setTimeout(180_000);
  const { token, tag } = await technician(laneway.serviceUrl, 'mq');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_liver`, HUMAN_DNA, uniqueSeed());
  const bare = await createSample(laneway.serviceUrl, token, `${tag}_bare`, HUMAN_DNA, uniqueSeed());
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `QC ${tag}`,
    samples: [sample.id],
  });
  await waitForExecution(laneway.serviceUrl, token, qc, 120_000);
  const project = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/projects/', {
    token,
    body: { name: `Liver ${tag}`, sample_ids: [sample.id] },
  });
  const empty = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/projects/', {
    token,
    body: { name: `Empty ${tag}`, sample_ids: [bare.id] },
  });

  await signIn(page, laneway, TECH);
  await page.goto(`${laneway.origin}/#/projects/${project.id}`);
  const detail = page.getByTestId('project-detail');
  await expect(detail).toContainText(`Liver ${tag}`);
  const panel = detail.getByTestId('multiqc-panel');
  await panel.getByRole('button', { name: 'MultiQC report' }).click();
  // The build waits on multiqc; the panel says so while it does (unless it was already done).
  const result = panel.getByTestId('multiqc-result');
  await expect(panel.getByTestId('multiqc-progress').or(result)).toBeVisible();
  await expect(result).toContainText('MultiQC report ready: 1 sample', { timeout: 120_000 });

  const view = result.getByRole('button', { name: /^View / });
  const filename = (await view.textContent())!.replace(/^View /, '');
  expect(filename).toMatch(/\.html$/);
  await view.click();
  const frame = page.getByTestId('report-frame');
  await expect(frame.getByTestId('report-document')).toBeVisible({ timeout: 30_000 });
  // Shown from the service's sandboxed view address, its scripts running (issue 20 item 4).
  await expect(frame.getByTestId('report-document')).toHaveAttribute('sandbox', 'allow-scripts');
  const shown = page.frameLocator('[data-testid="report-document"]').locator('body');
  await expect(shown).toContainText('MultiQC');
  await expect(shown).toContainText(`${tag}_liver`);

  const download = page.waitForEvent('download');
  await result
    .getByRole('button', { name: `Download ${filename}` })
    .first()
    .click();
  const saved = await (await download).path();
  const html = await readFile(saved, 'utf8');
  expect(html).toMatch(/<html/i);
  expect(html).toContain('MultiQC');
  expect(html).toContain(`${tag}_liver`);
  // The data list's source filter offers `report`, and the report is listed under it.
  const reports = await call<{ items: Array<{ filename: string; source?: string; data_type: string }> }>(
    laneway.serviceUrl,
    'GET',
    '/api/data/?source=report&per_page=100',
    { token },
  );
  expect(reports.items.find((d) => d.filename === filename)).toMatchObject({ source: 'report', data_type: 'multiqc' });
  await expectAccessible(page);
  await shootBoth(page, 'multiqc-report-project');

  // Nothing MultiQC reads: the service's own reason, not a generic failure.
  await page.goto(`${laneway.origin}/#/projects/${empty.id}`);
  const emptyDetail = page.getByTestId('project-detail');
  await expect(emptyDetail).toContainText(`Empty ${tag}`);
  await emptyDetail.getByRole('button', { name: 'MultiQC report' }).click();
  const notice = emptyDetail.getByTestId('error-notice');
  await expect(notice).toContainText('No output MultiQC reads', { timeout: 60_000 });
  await expect(notice).toHaveAttribute('data-code', 'CONFLICT');
  // Not the generic advice for a conflict: refreshing does not give MultiQC anything to read.
  await expect(notice).not.toContainText('Refresh and try again');
  await expect(notice).toContainText(
    'The report needs completed QC, alignment or variant-calling outputs and MultiQC on the service.',
  );
  await expectAccessible(page);
  await shootBoth(page, 'multiqc-report-refused');
});

test("a lane sample's details build the lane's MultiQC report", async ({ page, laneway }) => {
  test.setTimeout(180_000);
  const { token, tag } = await technician(laneway.serviceUrl, 'ml');
  // A lane straight to the service, as the lane editor sends it.
  const lane = { id: await postTinyLane(laneway.serviceUrl, token, tag) };
  type LaneState = { status: string; samples?: Array<{ name: string; sample_id: number | null }> };
  let state: LaneState = { status: 'pending' };
  await expect
    .poll(
      async () => (state = await call<LaneState>(laneway.serviceUrl, 'GET', `/api/lanes/${lane.id}`, { token })).status,
      { timeout: 60_000 },
    )
    .toBe('complete');
  const x = state.samples?.find((s) => s.name === `${tag}_x`)?.sample_id;
  expect(typeof x).toBe('number');
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `QC ${tag}`,
    samples: [x],
  });
  await waitForExecution(laneway.serviceUrl, token, qc, 120_000);

  await signIn(page, laneway, TECH);
  await page.goto(`${laneway.origin}/#/samples/${x}`);
  const detail = page.getByTestId('sample-detail');
  // The sample names its lane by the lane's name (issue 19: not "Lane 1").
  await expect(detail).toContainText(`Lane ${tag}`);
  await detail.getByRole('button', { name: 'MultiQC report' }).click();
  const result = detail.getByTestId('multiqc-result');
  await expect(result).toContainText('MultiQC report ready: 1 sample', { timeout: 120_000 });
  const view = result.getByRole('button', { name: /^View / });
  await view.click();
  const shown = page.frameLocator('[data-testid="report-document"]').locator('body');
  await expect(shown).toContainText('MultiQC', { timeout: 30_000 });
  await expect(shown).toContainText(`${tag}_x`);
  await expectAccessible(page);
  await shootBoth(page, 'multiqc-report-lane');
});
