/**
 * The README's "Your first run", step by step, in Chromium against a fresh `laneway start
 * --browser` (no account yet) with the example run in docs/first-run/example-run. Each step
 * checks what the README says the technician sees, runs axe, and saves the README's picture of
 * it at 1440x900. Every test run walks the steps (so the walkthrough stays true) and saves the
 * pictures with the other screenshots; `LANEWAY_UPDATE_DOCS=1` writes them over the README's
 * committed ones in docs/first-run/ instead (a plain run would leave the checkout changed).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, startLaneway, test, type LanewayApp } from './fixtures';
import { LARGE } from './first-day';
import { openScreen } from './ui-session';

const EXAMPLE_RUN = fileURLToPath(new URL('../../docs/first-run/example-run', import.meta.url));
const PICTURES =
  process.env.LANEWAY_UPDATE_DOCS === '1'
    ? fileURLToPath(new URL('../../docs/first-run', import.meta.url))
    : join('test', 'e2e', 'screenshots', 'first-run');
const ME = { username: 'ada', name: 'Ada Lovelace', email: 'ada@lab.example', password: 'first-run-2026' };

let app: LanewayApp;
test.beforeAll(async () => {
  app = await startLaneway();
});
test.afterAll(async () => {
  await app?.stop();
});

/**
 * The README's picture of this step: what is on screen at 1440x900, after axe found nothing
 * serious. Notes ("4 files queued") fade by themselves after 5 s; the picture waits for that
 * unless the step is about the note.
 */
async function picture(page: Page, name: string, { withNotes = false } = {}): Promise<void> {
  if (!withNotes) await expect(page.getByTestId('toasts').getByRole('status')).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page);
  await page.screenshot({ path: join(PICTURES, `${name}.png`) });
}

test('your first run: from creating the account to reading a QC report, as the README tells it', async ({ page }) => {
  test.slow(); // uploads and a pipeline run on a shared 2-core machine
  await page.setViewportSize(LARGE);

  // 1. Start Laneway: the first screen asks where the data lives; "This computer" is chosen.
  await page.goto(app.url);
  const setup = page.getByTestId('setup-form');
  await expect(setup).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('radio', { name: /This computer/ })).toBeChecked();

  // 2. Create your account.
  await setup.getByLabel('Username').fill(ME.username);
  await setup.getByLabel('Full name').fill(ME.name);
  await setup.getByLabel('E-mail').fill(ME.email);
  await setup.getByLabel('Password (at least 8 characters)').fill(ME.password);
  await picture(page, '01-create-account');
  await setup.getByRole('button', { name: 'Create account and sign in' }).click();
  await expect(page.getByTestId('header-user')).toContainText(ME.name);
  await expect(page.getByRole('heading', { level: 2, name: 'Samples & data' })).toBeVisible();
  await expect(page).toHaveURL(/#\/samples$/);
  await expect(page.getByTestId('samples-empty')).toHaveText(
    'No samples yet. Add reads on the Uploads screen, or watch an instrument folder.',
  );

  // 3. Add your reads: the folder's path, Propose samples, Organism and Category for all.
  await openScreen(page, 'uploads');
  await page.getByLabel('Files or folders (one path per line)').fill(EXAMPLE_RUN);
  await page.getByRole('button', { name: 'Propose samples' }).click();
  const rows = page.getByTestId('proposal-row');
  await expect(rows).toHaveCount(2);
  const names = page.getByTestId('proposal-samples').getByRole('textbox');
  await expect(names.nth(0)).toHaveValue('Liver-1');
  await expect(names.nth(1)).toHaveValue('Liver-2');
  await expect(rows.first()).toContainText('Liver-1_S1_L001_R1_001.fastq.gz');
  await expect(rows.first()).toContainText('Liver-1_S1_L001_R2_001.fastq.gz');
  await expect(page.getByRole('button', { name: 'Confirm and upload' })).toBeDisabled();
  await expect(page.getByTestId('confirm-blocked')).toContainText('Choose Organism and Category');
  await page.getByLabel('Organism (all samples)').selectOption('Mus musculus');
  await page.getByLabel('Category (all samples)').selectOption('Total RNA');
  await expect(page.getByRole('button', { name: 'Confirm and upload' })).toBeEnabled();
  await picture(page, '02-proposal');

  // 4. Upload: every file acknowledged by the service, each sample created.
  await page.getByRole('button', { name: 'Confirm and upload' }).click();
  const groups = page.getByTestId('upload-groups');
  await expect(groups).toContainText('Sample Liver-1: created', { timeout: 60_000 });
  await expect(groups).toContainText('Sample Liver-2: created', { timeout: 60_000 });
  const table = page.getByTestId('uploads-table');
  await expect(table.locator('tr[data-state="completed"]')).toHaveCount(4);
  await expect(page.getByTestId('upload-overall')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('overall-state')).toHaveText('Idle: nothing is uploading');
  await expect(groups.getByRole('link', { name: 'Liver-1' })).toHaveAttribute('href', /^#\/samples\/\d+$/);
  await picture(page, '03-uploaded');

  // 5. Choose the samples: Samples & data, tick them all, Analyse 2 selected.
  await openScreen(page, 'samples');
  const samples = page.getByTestId('samples-table');
  await expect(samples.getByRole('link', { name: 'Liver-1' })).toBeVisible();
  await expect(samples.locator('tr', { hasText: 'Liver-2' })).toContainText('Mus musculus');
  // Uploads are not counted on arrival: until a QC run has counted them, the reads say so.
  const readsOf = (name: string) => samples.locator('tr', { hasText: name }).getByTestId('sample-reads');
  await expect(readsOf('Liver-1')).toHaveText('—');
  await samples.getByTestId('select-all').check();
  await expect(page.getByRole('button', { name: 'Analyse 2 selected' })).toBeEnabled();
  await picture(page, '04-samples');
  await page.getByRole('button', { name: 'Analyse 2 selected' }).click();
  await expect(page.getByTestId('selection-note')).toContainText('the 2 selected samples');

  // 6. Start quality control: FASTQ Quality Control, a name, Launch.
  await page.getByRole('link', { name: 'FASTQ Quality Control' }).click();
  const form = page.getByTestId('launch-form');
  await expect(form.getByRole('group', { name: 'Samples (2 selected)' })).toBeVisible();
  await expect(form.getByRole('checkbox', { name: 'Liver-1' })).toBeChecked();
  await expect(form.getByRole('checkbox', { name: 'Liver-2' })).toBeChecked();
  await form.getByLabel('Execution name').fill('QC of my first run');
  await picture(page, '05-launch');
  await form.getByTestId('launch').click();

  // 7. Follow it: the execution's page, live, until it completed; the end is announced.
  const dashboard = page.getByTestId('execution-dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'QC of my first run' })).toBeVisible();
  await expect(page).toHaveURL(/#\/executions\/\d+$/);
  await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(dashboard.getByTestId('execution-progress')).toHaveText('2 of 2 samples done');
  // What may be done next follows the end at once (it said "It is still running" for a while).
  await expect(page.getByTestId('resume-reason')).toContainText('It completed: there is nothing to resume');
  await expect(page.getByTestId('toasts')).toContainText('Execution QC of my first run completed', {
    timeout: 30_000,
  });
  await picture(page, '06-execution', { withNotes: true });

  // 8. Read the QC report: View under Outputs; a low Q30 is flagged.
  await dashboard.getByRole('button', { name: 'View Liver-1_R1.qc.html' }).click();
  const report = page.getByTestId('report-frame');
  await expect(report.getByRole('heading', { name: 'Report: Liver-1_R1.qc.html' })).toBeFocused();
  const doc = page.frameLocator('[data-testid="report-document"]');
  await expect(doc.getByRole('heading', { level: 1 })).toHaveText(
    'Quality control: Liver-1: Liver-1_S1_L001_R1_001.fastq.gz',
  );
  const readsRow = doc.locator('tr').filter({ has: doc.locator('th', { hasText: /^Reads$/ }) });
  await expect(readsRow).toContainText('500');
  await expect(doc.locator('tr', { hasText: 'Q30 bases' })).not.toContainText('low');
  // The verdicts of FastQC's limits head the report.
  await expect(doc.getByRole('heading', { name: 'Flags' })).toBeVisible();
  await picture(page, '07-report');
  await dashboard.getByRole('button', { name: 'View Liver-2_R1.qc.html' }).click();
  await expect(report.getByRole('heading', { name: 'Report: Liver-2_R1.qc.html' })).toBeVisible();
  await expect(doc.getByRole('heading', { level: 1 })).toHaveText(
    'Quality control: Liver-2: Liver-2_S2_L001_R1_001.fastq.gz',
  );
  await expect(doc.locator('tr', { hasText: 'Q30 bases' })).toContainText(
    'low: under 80% of bases reach Q30; check the run before analysing it',
  );
  await expect(report.getByRole('button', { name: 'Download Liver-2_R1.qc.html' })).toBeVisible();
  await picture(page, '08-report-low-q30');

  // The end of the execution is kept under Notifications, and leads back to it.
  const execution = page.url();
  await openScreen(page, 'notifications');
  // Listed once, under the service's notices (issue 20: it was listed twice, here and there).
  await expect(page.getByTestId('notifications-list')).toContainText('Execution QC of my first run completed');
  await expect(page.getByTestId('activity-list')).not.toContainText('Execution QC of my first run');
  await page
    .getByTestId('notifications-list')
    .getByRole('link', { name: /^Open execution/ })
    .click();
  await expect(page).toHaveURL(execution);

  // Back on Samples & data, the QC run's counts are the samples' reads (read pairs).
  await openScreen(page, 'samples');
  await expect(readsOf('Liver-1')).toHaveText('500');
  await expect(readsOf('Liver-1').locator('span')).toHaveAttribute(
    'title',
    /quality control \(execution \d+\): read pairs/,
  );
  await expect(readsOf('Liver-2')).toHaveText('500');
});
