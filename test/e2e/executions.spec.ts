import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

interface Pipeline {
  id: number;
  name: string;
  versions: Array<{ id: number; is_latest: boolean }>;
}

async function launchQc(base: string, token: string, sampleId: number, name: string): Promise<number> {
  const pipelines = await call<Pipeline[]>(base, 'GET', '/api/pipelines', { token });
  const qc = pipelines.find((p) => p.name === 'FASTQ Quality Control')!;
  const version = qc.versions.find((v) => v.is_latest)!;
  const e = await call<{ id: number }>(base, 'POST', `/api/pipelines/versions/${version.id}/run`, {
    token,
    body: { name, samples: [sampleId], parameters: {} },
  });
  return e.id;
}

test('executions: list, live dashboard with processes, log and outputs', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'e');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, 5);

  const id = await launchQc(laneway.serviceUrl, token, sample.id, `QC ${tag}`);
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-executions').click();
  const table = page.getByTestId('executions-table');
  // The dashboard asks for the catalogue to know whether anything takes QC's outputs.
  const catalogue = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/pipelines' && r.ok());
  await table.getByRole('button', { name: `QC ${tag}` }).click();

  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
  await expect(dashboard.getByTestId('execution-progress')).toHaveText('1 of 1 sample done');
  // No pipeline chains from QC: no "Chain a next pipeline" (it led to an empty chooser).
  await catalogue;
  await expect(dashboard.getByRole('button', { name: 'Chain a next pipeline' })).toHaveCount(0);
  await expect(dashboard.getByTestId('process-table').getByRole('row')).not.toHaveCount(1);
  await expect(dashboard.getByTestId('log-list')).not.toHaveAttribute('data-rows', '0');
  await expect(
    dashboard
      .getByTestId('outputs')
      .getByRole('button', { name: /^Download / })
      .first(),
  ).toBeVisible();
  // MultiQC first among the outputs: the multi-sample view a technician opens first.
  await expect(dashboard.getByTestId('outputs').locator('tbody tr').first()).toContainText(/multiqc/i);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-dashboard'), fullPage: true });
  expect(id).toBeGreaterThan(0);
});

test('executions: the dashboard falls back to polling when the WebSocket is refused', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'f');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, 6);
  // Every GraphQL WebSocket is closed at once, as a proxy that drops WebSockets would.
  await page.routeWebSocket(/\/api\/graphql/, (ws) => ws.close({ code: 1011, reason: 'dropped by test' }));

  await launchQc(laneway.serviceUrl, token, sample.id, `QC ${tag}`);
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-executions').click();
  await page
    .getByTestId('executions-table')
    .getByRole('button', { name: `QC ${tag}` })
    .click();
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('feed-mode')).toHaveAttribute('data-mode', /polling|finished/);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 60_000 });
  await expect(dashboard.getByTestId('log-list')).not.toHaveAttribute('data-rows', '0');
  await page.screenshot({ path: screenshotPath('execution-polling'), fullPage: true });
});

test('executions: a queued execution followed live, cancelled after confirmation', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'c');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_big`, HUMAN_DNA, 7, 40_000);
  // Each QC run takes both CPUs: the later ones wait in the queue behind the first.
  await launchQc(laneway.serviceUrl, token, sample.id, `QC ${tag} 1`);
  await launchQc(laneway.serviceUrl, token, sample.id, `QC ${tag} 2`);
  const id = await launchQc(laneway.serviceUrl, token, sample.id, `QC ${tag} 3`);

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-executions').click();
  await page
    .getByTestId('executions-table')
    .getByRole('button', { name: `QC ${tag} 3` })
    .click();
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'live');
  await expect(dashboard.getByTestId('execution-status')).toHaveText(/queued|running/);
  await dashboard.getByRole('button', { name: 'Cancel execution' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('This cannot be undone');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-cancel-confirm'), fullPage: true });
  await dialog.getByRole('button', { name: 'Stop the execution' }).click();
  await expect(dashboard.getByTestId('execution-status')).toHaveText('cancelled', { timeout: 30_000 });
  // Stopped in the queue, it will never have outputs: the table does not promise them.
  await expect(dashboard.getByTestId('outputs')).toContainText(
    'No files: it was cancelled before any process finished.',
  );
  await expect(dashboard.getByTestId('outputs')).not.toContainText('Outputs appear as processes finish');
  const after = await call<{ status: string }>(laneway.serviceUrl, 'GET', `/api/executions/${id}`, { token });
  expect(after.status).toBe('cancelled');
});

test('executions: an address of an execution that does not exist says so once, without "connection lost"', async ({
  page,
  laneway,
}) => {
  await signIn(page, laneway, TECH);
  await page.goto(`${laneway.origin}/#/executions/987654`);
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(dashboard.getByTestId('error-notice')).toHaveAttribute('data-code', 'NOT_FOUND');
  // It read "Live connection lost: refreshing every 2 s" and asked for the missing one every 2 s.
  await expect(dashboard.getByTestId('feed-mode')).toHaveAttribute('data-mode', 'missing');
  await expect(dashboard.getByTestId('feed-mode')).toBeHidden();
  await expect(dashboard).not.toContainText('connection lost');
});
