/**
 * Issue 20 item 4: results at a glance. A QC run of the example run (Liver-2 is poor on
 * purpose) shows a per-sample QC table on its page and its project's page, its completion
 * notice names the failing sample, MultiQC comes first among its outputs, and the MultiQC
 * report opens in the app with its scripts running and its plots drawn. A hostile report in
 * the same frame runs its script but cannot read the app or reach the service.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Locator } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { runPipeline, shootBoth, waitForExecution } from './first-day';
import { call, TECH, technician, uploadFile } from './service-api';
import { signIn } from './ui-session';

const EXAMPLE_RUN = fileURLToPath(new URL('../../docs/first-run/example-run', import.meta.url));

/** The example run's file, its read names tagged so that its bytes are new to this service. */
function exampleReads(file: string, tag: string): Buffer {
  const text = gunzipSync(readFileSync(join(EXAMPLE_RUN, file))).toString('utf8');
  // Every fourth line is a header (a quality line may start with '@' too).
  const lines = text
    .split('\n')
    .map((l, i) => (i % 4 === 0 && l.startsWith('@') ? l.replace(/^(@\S+)/, `$1_${tag}`) : l));
  return Buffer.from(lines.join('\n'));
}

/** A report whose script tries everything a report must not do, and writes what happened. */
function hostileReport(serviceUrl: string, appOrigin: string, listener: string, tag: string): string {
  return `<!DOCTYPE html><html><head><title>hostile</title></head><body>
<pre id="probe">not run</pre>
<script>
const out = [];
const note = (k, v) => { out.push(k + ': ' + v); document.getElementById('probe').textContent = out.join('\\n'); };
(async () => {
  note('origin', String(self.origin));
  try { localStorage.getItem('x'); note('storage', 'readable'); } catch (e) { note('storage', 'blocked'); }
  try { note('parent', 'readable ' + parent.document.title); } catch (e) { note('parent', 'blocked'); }
  const targets = [['relative', '/api/me?probe=${tag}'], ['service', '${serviceUrl}/api/me?probe=${tag}'],
    ['app', '${appOrigin}/?probe=${tag}'], ['listener', '${listener}/api/me?probe=${tag}']];
  for (const [k, url] of targets) {
    try { const r = await fetch(url, { credentials: 'include' }); note(k, 'reached ' + r.status); }
    catch (e) { note(k, 'blocked'); }
  }
  // A beacon says only whether it was queued: the listener below tells whether it left.
  try { navigator.sendBeacon('${listener}/beacon?probe=${tag}', 'x'); } catch (e) { note('beacon', 'threw'); }
  try { new Image().src = '${listener}/img?probe=${tag}'; } catch (e) { note('image', 'threw'); }
  note('done', 'yes');
})();
</script></body></html>`;
}

test('a QC run shows its samples at a glance and its MultiQC report with plots, walled off', async ({
  page,
  laneway,
}) => {
  test.setTimeout(240_000);
  const { token, tag } = await technician(laneway.serviceUrl, 'rg');
  const metadata = { organism: 'Mus musculus', category: 'RNA' };
  const samples: number[] = [];
  for (const [name, s] of [
    ['Liver-1', 'S1'],
    ['Liver-2', 'S2'],
  ] as const) {
    const read1 = await uploadFile(
      laneway.serviceUrl,
      token,
      `${name}_${tag}_R1.fastq`,
      exampleReads(`${name}_${s}_L001_R1_001.fastq.gz`, tag),
    );
    const read2 = await uploadFile(
      laneway.serviceUrl,
      token,
      `${name}_${tag}_R2.fastq`,
      exampleReads(`${name}_${s}_L001_R2_001.fastq.gz`, tag),
    );
    const sample = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/samples/', {
      token,
      body: { name: `${name}-${tag}`, read1, read2, metadata },
    });
    samples.push(sample.id);
  }
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', { name: `QC ${tag}`, samples });
  const ended = (await waitForExecution(laneway.serviceUrl, token, qc, 180_000)) as { status: string; error?: string };
  if (ended.status !== 'completed') {
    const logs = await call<unknown>(laneway.serviceUrl, 'GET', `/api/executions/${qc}/logs`, { token });
    throw new Error(`QC ${ended.status}: ${ended.error} ${JSON.stringify(logs).slice(0, 3000)}`);
  }
  const project = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/projects/', {
    token,
    body: { name: `Livers ${tag}`, sample_ids: samples },
  });

  // The completion notice names the failing sample (the service's notification).
  const notices = await call<{ items: Array<{ subject: string; body: string; data: { execution_id?: number } }> }>(
    laneway.serviceUrl,
    'GET',
    '/api/notifications?per_page=100',
    { token },
  );
  const notice = notices.items.find((n) => n.data.execution_id === qc)!;
  // Liver-2 fails (and has 3% Q30); the synthetic Liver-1 fails FastQC's GC curve too.
  expect(notice.subject).toMatch(new RegExp(`^Execution QC ${tag} completed: QC failed for .*Liver-2-${tag}`));
  expect(notice.body).toMatch(new RegExp(`\nFailed: .*Liver-2-${tag} \\(Per sequence GC content\\)`));
  expect(notice.body).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);

  await signIn(page, laneway, TECH);
  await page.goto(`${laneway.origin}/#/executions/${qc}`);
  const dashboard = page.getByTestId('execution-dashboard');
  const table = dashboard.getByTestId('qc-table');
  await expect(table.locator('tbody tr')).toHaveCount(2);
  const good = table.locator('tr', { hasText: `Liver-1-${tag}` });
  const bad = table.locator('tr', { hasText: `Liver-2-${tag}` });
  await expect(bad).toHaveAttribute('data-verdict', 'fail');
  await expect(bad).toContainText('Per sequence GC content (fail)');
  // Its Q30 share is low, and says so in red.
  await expect(bad.locator('td').nth(1)).toHaveClass('status-failed');
  await expect(good.locator('td').first()).toHaveText('500');
  // A name and its figures keep to one line (Liver-1-… broke at its hyphens, % Q30 after its %);
  // only the list of checks wraps.
  const lineCount = (cell: Locator) =>
    cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size;
    });
  expect(await lineCount(good.locator('th'))).toBe(1);
  expect(await lineCount(table.locator('thead th').nth(2))).toBe(1);

  // MultiQC first among the outputs.
  const firstOutput = dashboard.getByTestId('outputs').locator('tbody tr').first();
  await expect(firstOutput).toContainText('multiqc_report.html');
  await firstOutput.getByRole('button', { name: 'View multiqc_report.html' }).click();
  const frameEl = page.getByTestId('report-document');
  await expect(frameEl).toHaveAttribute('sandbox', 'allow-scripts');
  const report = page.frameLocator('[data-testid="report-document"]');
  // Its scripts ran: MultiQC's own code hid its "Loading report.." (shown when scripts do not run).
  const loading = report.locator('.side-nav .mqc_loading_warning');
  await expect(loading).toHaveCount(1);
  await expect(loading).toBeHidden({ timeout: 30_000 });
  await expect(report.getByText('JavaScript Disabled')).toBeHidden();
  // Its plots are drawn: every plot image decoded with a size.
  const plots = report.locator('.mqc_mplplot img');
  await expect(plots.first()).toBeVisible();
  const sizes = await plots.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
  expect(sizes.length).toBeGreaterThan(2);
  expect(sizes.every((w) => w > 100)).toBe(true);
  await expect(report.locator('body')).toContainText(`Liver-2-${tag}`);
  await expectAccessible(page);
  await shootBoth(page, 'results-at-a-glance-execution');

  // The project's page: the same table, each sample's newest QC.
  await page.goto(`${laneway.origin}/#/projects/${project.id}`);
  const projectTable = page.getByTestId('project-detail').getByTestId('qc-table');
  await expect(projectTable.locator('tr', { hasText: `Liver-2-${tag}` })).toHaveAttribute('data-verdict', 'fail');
  await expectAccessible(page);
  await shootBoth(page, 'results-at-a-glance-project');

  // A hostile report in the same frame: its script runs, in an opaque origin, and reaches nothing.
  const outputs = await call<{ outputs: Array<{ id: number; filename: string }> }>(
    laneway.serviceUrl,
    'GET',
    `/api/executions/${qc}`,
    { token },
  );
  const mqc = outputs.outputs.find((o) => o.filename === 'multiqc_report.html')!;
  const record = await call<{ checksum: string }>(laneway.serviceUrl, 'GET', `/api/data/${mqc.id}`, { token });
  // The injected fault: the stored report's bytes replaced (the store is content-addressed by sha256).
  const stored = join(laneway.home, 'service', 'store', record.checksum.slice(0, 2), record.checksum);
  // A listener on loopback, as a stand-in for any address the report might try: it counts what reaches it.
  const reached: string[] = [];
  const listener = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  writeFileSync(stored, hostileReport(laneway.serviceUrl, laneway.origin, listenerUrl, tag));
  const probes: string[] = [];
  // The browser may list a request that its policy then refuses; one that finished would have left.
  page.on('requestfinished', (r) => r.url().includes(`probe=${tag}`) && probes.push(r.url()));
  await page.goto(`${laneway.origin}/#/executions/${qc}`);
  await page.getByTestId('execution-dashboard').getByRole('button', { name: 'View multiqc_report.html' }).click();
  const probe = page.frameLocator('[data-testid="report-document"]').locator('#probe');
  await expect(probe).toContainText('done: yes', { timeout: 30_000 });
  const lines = (await probe.textContent())!;
  expect(lines).toContain('origin: null');
  expect(lines).toContain('storage: blocked');
  expect(lines).toContain('parent: blocked');
  expect(lines).toContain('relative: blocked');
  expect(lines).toContain('service: blocked');
  expect(lines).toContain('app: blocked');
  expect(lines).toContain('listener: blocked');
  // Nothing left the frame: no request seen by the browser, none reached the listener.
  await page.getByTestId('report-frame').getByRole('button', { name: 'Close report' }).click();
  expect(probes).toEqual([]);
  expect(reached).toEqual([]);
  listener.close();
});
