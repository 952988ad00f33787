/**
 * Issue 20, done-when: a team's week in Chromium against `laneway start --browser`, one app and
 * its real service. Monday: Tess adds Omar from the Account screen and uploads a run; the
 * service is killed (SIGKILL) mid-upload and the screen and queue carry on without a reload.
 * Tuesday: a lane; a run killed mid-way is marked interrupted on its open page, re-run from
 * the pre-filled form with a parameter changed. Wednesday: QC, results at a glance, MultiQC
 * with its plots; the project shared with Omar's group with reads and results, and Omar's view.
 * Friday: a backup while the app runs, restored into a new folder that serves the samples.
 * Then service.log tells the week to someone who was not there. Pictures at 1024x700 and
 * 1440x900 with axe at each step.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANEWAY_BIN } from '../../helpers/cli';
import { expect, startLaneway, test, type LanewayApp } from '../fixtures';
import { postTinyLane } from '../first-day';
import { call, ensureFirstAccount, SECOND, TECH, tokenFor } from '../service-api';
import { openScreen, signIn } from '../ui-session';
import { makeRunFolder, readServiceLog, servicePid, shoot, weekCatalogue } from './week-kit';

let app: LanewayApp;
let restored: LanewayApp | null = null;
const scratch = mkdtempSync(join(tmpdir(), 'laneway-week-'));

test.beforeAll(async () => {
  app = await startLaneway({ env: { LANEWAY_PIPELINES_DIR: weekCatalogue() }, keepHome: true });
});
test.afterAll(async () => {
  await restored?.stop();
  await app?.stop();
  rmSync(app.home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the real `laneway` command to its end; its exit code and output. */
function laneway(args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [LANEWAY_BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

test("a team's week: two users, crashes, a re-run, results, sharing, backup and restore", async ({ page }) => {
  test.setTimeout(900_000);
  const tag = `w${Date.now() % 100000}`;
  await ensureFirstAccount(app.serviceUrl, TECH);
  const token = () => tokenFor(app.serviceUrl, TECH);
  // A reload would lose this: every recovery below must happen in the same document.
  const survives = async () =>
    expect(await page.evaluate(() => (window as unknown as { week?: string }).week)).toBe('same page');

  await test.step('Monday: Omar is added from the Account screen', async () => {
    await signIn(page, app, TECH);
    await page.evaluate(() => ((window as unknown as { week: string }).week = 'same page'));
    await openScreen(page, 'account');
    const form = page.getByTestId('new-user-form');
    await form.getByLabel('Username').fill(SECOND.username);
    await form.getByLabel('Full name').fill(SECOND.name);
    await form.getByLabel('E-mail').fill(SECOND.email);
    await form.getByLabel('First password').fill(SECOND.password);
    await form.getByLabel('May run pipelines').check();
    await form.getByRole('button', { name: 'Add account' }).click();
    await expect(page.getByTestId('users-table')).toContainText(SECOND.username);
    await shoot(page, '01-account-colleague');
  });

  const run = makeRunFolder(tag, 20_000); // four files of about 2.4 MB
  await test.step('Monday: an upload survives the service killed in the middle of it', async () => {
    await openScreen(page, 'uploads');
    const settings = page.getByRole('form', { name: 'Upload settings' });
    await settings.getByLabel('Parallel uploads').fill('1');
    await settings.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('4');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings.getByRole('status')).toHaveText('Saved');
    await page.getByTestId('ingest-paths').fill(run.dir);
    await page.getByRole('button', { name: 'Propose samples' }).click();
    await page.getByLabel('Organism (all samples)').selectOption('Mus musculus');
    await page.getByLabel('Category (all samples)').selectOption('Total RNA');
    await page.getByRole('button', { name: 'Confirm and upload' }).click();
    const table = page.getByTestId('uploads-table');
    // Some bytes are on the service, most are not: kill it now.
    await expect(table.locator('tr[data-state="uploading"]', { hasText: tag })).toHaveCount(1, { timeout: 60_000 });
    await expect(table.locator('tr[data-state="queued"]', { hasText: tag })).not.toHaveCount(0);
    process.kill(servicePid(app.cli.child.pid!), 'SIGKILL');
    await expect(page.getByTestId('connection-banner')).toContainText('local service is restarting');
    await shoot(page, '02-upload-service-restarting', { keepNotes: true });
    const groups = page.getByTestId('upload-groups');
    for (const name of run.samples) await expect(groups).toContainText(`Sample ${name}: created`, { timeout: 180_000 });
    await expect(table.locator('tr[data-state="completed"]', { hasText: tag })).toHaveCount(4);
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
    await survives();
    await settings.getByLabel('Bandwidth limit (Mbit/s, empty for none)').fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await shoot(page, '03-upload-recovered');
  });

  const ids = async () => {
    const page1 = await call<{ items: Array<{ id: number; name: string }> }>(
      app.serviceUrl,
      'GET',
      `/api/samples/?per_page=100`,
      { token: await token() },
    );
    return run.samples.map((n) => page1.items.find((s) => s.name === n)!.id);
  };

  await test.step('Tuesday: a lane, and a run killed mid-way, re-run with a parameter changed', async () => {
    await postTinyLane(app.serviceUrl, await token(), tag);
    const [kidney] = await ids();
    const gate = join(scratch, 'gate');
    const counter = join(scratch, 'counter');
    const versions = await call<Array<{ name: string; versions: Array<{ id: number }> }>>(
      app.serviceUrl,
      'GET',
      '/api/pipelines',
      { token: await token() },
    );
    const version = versions.find((p) => p.name === 'Test Resumable')!.versions.at(-1)!;
    const waiting = await call<{ id: number }>(app.serviceUrl, 'POST', `/api/pipelines/versions/${version.id}/run`, {
      token: await token(),
      body: { name: `Gated ${tag}`, samples: [kidney], parameters: { counter, gate, wait_for_gate: true } },
    });
    await page.goto(`${app.origin}/#/executions/${waiting.id}`);
    await page.evaluate(() => ((window as unknown as { week: string }).week = 'same page'));
    const dashboard = page.getByTestId('execution-dashboard');
    // Step one has run (it wrote the counter): step two is waiting on the gate, surely running.
    await expect(dashboard.getByTestId('execution-status')).toHaveText('running', { timeout: 120_000 });
    await expect.poll(() => existsSync(counter), { timeout: 120_000 }).toBe(true);
    process.kill(servicePid(app.cli.child.pid!), 'SIGKILL');
    await expect(dashboard.getByTestId('execution-status')).toHaveText('failed', { timeout: 60_000 });
    await expect(dashboard).toContainText('Interrupted: the service stopped while this execution was running');
    await survives();
    await shoot(page, '04-run-interrupted');

    writeFileSync(gate, 'open\n');
    await dashboard.getByTestId('rerun-button').click();
    const form = page.getByTestId('launch-form');
    await expect(form.getByLabel('Execution name')).toHaveValue(`Gated ${tag} (re-run)`);
    const wait = form.getByRole('checkbox', { name: /wait/i });
    await expect(wait).toBeChecked();
    await wait.uncheck();
    await shoot(page, '05-rerun-form');
    await form.getByTestId('launch').click();
    await expect(dashboard.getByText('A re-run of')).toBeVisible();
    await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 180_000 });
    await page.getByRole('button', { name: 'All executions' }).click();
    const rerunRow = page.getByTestId('executions-table').locator('tr', { hasText: `Gated ${tag} (re-run)` });
    await expect(rerunRow.getByTestId('row-owner')).toHaveText(TECH.username);
    await expect(rerunRow.getByTestId('row-duration')).toHaveText(/\d+ (s|min)/);
    await shoot(page, '06-executions-owner-duration');
  });

  let projectId = 0;
  await test.step('Wednesday: QC at a glance, MultiQC with its plots, the project shared with Omar', async () => {
    const samples = await ids();
    await openScreen(page, 'samples');
    const table = page.getByTestId('samples-table');
    for (const name of run.samples) await table.locator('tr', { hasText: name }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Analyse 2 selected' }).click();
    await page.getByRole('link', { name: 'FASTQ Quality Control' }).click();
    const form = page.getByTestId('launch-form');
    await form.getByLabel('Execution name').fill(`QC ${tag}`);
    await form.getByTestId('launch').click();
    const dashboard = page.getByTestId('execution-dashboard');
    await expect(dashboard.getByTestId('execution-status')).toHaveText('completed', { timeout: 180_000 });
    const qc = dashboard.getByTestId('qc-table');
    for (const name of run.samples) await expect(qc.locator('tr', { hasText: name })).toContainText('20,000');
    await dashboard.getByRole('button', { name: 'View multiqc_report.html' }).click();
    const report = page.frameLocator('[data-testid="report-document"]');
    await expect(report.locator('.mqc_mplplot img').first()).toBeVisible({ timeout: 30_000 });
    await expect(report.locator('.side-nav .mqc_loading_warning')).toBeHidden();
    // The picture: the report's first plot, inside the app.
    await shoot(page, '07-multiqc-plots', {
      arrange: async () => {
        await page.getByTestId('report-frame').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        // Down to the first plot and back to the left edge (a plot wider than the frame scrolls sideways).
        await report
          .locator('.mqc_mplplot img')
          .first()
          .evaluate((el) => el.ownerDocument.defaultView!.scrollTo(0, el.getBoundingClientRect().top + scrollY - 120));
      },
    });
    await dashboard.getByTestId('qc-table').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shoot(page, '07-qc-at-a-glance');

    const project = await call<{ id: number }>(app.serviceUrl, 'POST', '/api/projects/', {
      token: await token(),
      body: { name: `Organs ${tag}`, sample_ids: samples },
    });
    projectId = project.id;
    const group = await call<{ slug: string }>(app.serviceUrl, 'POST', '/api/groups/', {
      token: await token(),
      body: { name: `Organ team ${tag}` },
    });
    await call(app.serviceUrl, 'POST', `/api/groups/${group.slug}/invite/`, {
      token: await token(),
      body: { emails: [SECOND.email], permission: 'view' },
    });
    await call(app.serviceUrl, 'POST', `/api/groups/${group.slug}/accept/`, {
      token: await tokenFor(app.serviceUrl, SECOND),
    });
    await page.goto(`${app.origin}/#/projects/${project.id}`);
    const detail = page.getByTestId('project-detail');
    const share = detail.getByTestId('share-panel');
    await share.getByLabel('Group').selectOption(group.slug);
    await expect(share.getByTestId('share-with-data')).toBeChecked();
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(share).toContainText(`Organ team ${tag}: view`);
    await shoot(page, '08-project-shared');

    // Omar, on the same computer after Tess signs out; a mistyped password first.
    await openScreen(page, 'account');
    await page.getByTestId('logout').click();
    const login = page.getByTestId('login-form');
    await login.getByLabel('Username').fill(SECOND.username);
    await login.getByLabel('Password').fill('not-his-password');
    await login.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password' })).toBeVisible();
    await signIn(page, app, SECOND);
    await page.goto(`${app.origin}/#/projects/${project.id}`);
    await expect(detail.getByTestId('project-samples')).toContainText(run.samples[0]!);
    await expect(detail.getByTestId('project-shared-note')).toContainText("with its samples' reads and results");
    for (const name of run.samples)
      await expect(detail.getByTestId('qc-table').locator('tr', { hasText: name })).toContainText('20,000');
    await shoot(page, '09-colleague-view');
  });

  await test.step('Friday: a backup while the app runs, restored into a new folder that serves the samples', async () => {
    const archive = join(scratch, 'week.tar.gz');
    const backup = laneway(['backup', '--data', join(app.home, 'service'), '--to', archive]);
    expect(backup.code, backup.out).toBe(0);
    const home = join(scratch, 'restored-home');
    const restore = laneway(['restore', '--from', archive, '--data', join(home, 'service')]);
    expect(restore.code, restore.out).toBe(0);
    restored = await startLaneway({ home });
    await signIn(page, restored, TECH);
    await openScreen(page, 'samples');
    const table = page.getByTestId('samples-table');
    for (const name of run.samples) await expect(table.getByRole('link', { name })).toBeVisible();
    // Its reads are there byte for byte.
    const t = await tokenFor(restored.serviceUrl, TECH);
    const sample = await call<{ read1: number }>(restored.serviceUrl, 'GET', `/api/samples/${(await ids())[0]}`, {
      token: t,
    });
    const bytes = Buffer.from(
      await (
        await fetch(`${restored.serviceUrl}/api/data/${sample.read1}/download`, {
          headers: { authorization: `Bearer ${t}` },
        })
      ).arrayBuffer(),
    );
    expect(bytes.equals(readFileSync(join(run.dir, `${run.samples[0]}_S1_L001_R1_001.fastq`)))).toBe(true);
    await page.goto(`${restored.origin}/#/projects/${projectId}`);
    await expect(page.getByTestId('project-detail').getByTestId('qc-table')).toContainText(run.samples[1]!);
    await shoot(page, '10-restored');
  });

  await test.step("service.log tells the week's story", async () => {
    const log = readServiceLog(app.home);
    const events = (e: string) => log.filter((l) => l.event === e);
    const uploads = events('upload.completed').filter((l) => String(l.filename).includes(tag));
    expect(uploads.length).toBeGreaterThanOrEqual(4);
    expect(events('lane.created').some((l) => String(l.lane).includes(tag))).toBe(true);
    expect(events('lane.demultiplexed').some((l) => String(l.lane).includes(tag))).toBe(true);
    const mine = (e: string) => events(e).filter((l) => String(l.execution).includes(tag));
    expect(mine('execution.queued').length).toBeGreaterThanOrEqual(3);
    expect(mine('execution.started').length).toBeGreaterThanOrEqual(3);
    expect(mine('execution.ended').map((l) => l.status)).toEqual(expect.arrayContaining(['failed', 'completed']));
    expect(events('service.started').map((l) => (l.previous_stop as { kind: string }).kind)).toEqual([
      'first-start',
      'crash',
      'crash',
    ]);
    expect(events('supervisor.restarted')).toHaveLength(2);
    expect(events('signin.succeeded').map((l) => l.user)).toEqual(
      expect.arrayContaining([TECH.username, SECOND.username]),
    );
    expect(events('signin.failed').some((l) => l.username === SECOND.username)).toBe(true);
  });
});
