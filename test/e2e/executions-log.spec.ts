/**
 * The execution log at 100,000 lines, measured in a real browser against the real service: a
 * `node:` worker (fixtures/log-flood) writes the lines, the dashboard pages them in through
 * `/api/executions/{id}/logs?after=`, and the test records load time, long tasks (over 50 ms)
 * while loading, scrolling and filtering, and how many rows are in the DOM. Timing bounds are
 * generous (a shared 2-core machine); the figures are printed for the README.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { appForFile } from './own-app';
import { floodCount, LOG_FLOOD_DIR } from './fixtures/log-flood/expected';
import { call, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { openScreen, signIn } from './ui-session';

const LINES = 100_000;
const ROW_BOUND = 60; // 360 px of 18 px rows plus overscan: anything near this is virtualised

const app = appForFile({ LANEWAY_PIPELINES_DIR: LOG_FLOOD_DIR });
test.describe.configure({ mode: 'serial' });

interface LongTask {
  start: number;
  duration: number;
}

async function runFlood(token: string, name: string, parameters: Record<string, number>): Promise<number> {
  const pipelines = await call<Array<{ name: string; versions: Array<{ id: number }> }>>(
    app.serviceUrl,
    'GET',
    '/api/pipelines',
    { token },
  );
  const version = pipelines.find((p) => p.name === 'Log Flood')!.versions[0]!;
  const e = await call<{ id: number }>(app.serviceUrl, 'POST', `/api/pipelines/versions/${version.id}/run`, {
    token,
    body: { name, parameters },
  });
  return e.id;
}

async function waitForStatus(token: string, id: number, status: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const e = await call<{ status: string }>(app.serviceUrl, 'GET', `/api/executions/${id}`, { token });
    if (e.status === status) return;
    if (Date.now() > until) throw new Error(`execution ${id} is ${e.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Records every long task from page start into window.__longTasks. */
async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: LongTask[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

const now = (page: Page) => page.evaluate(() => performance.now());
const longTasksSince = (page: Page, since: number) =>
  page.evaluate(
    (t) => (window as unknown as { __longTasks: LongTask[] }).__longTasks.filter((x) => x.start >= t),
    since,
  );
const summary = (tasks: LongTask[]) => ({
  count: tasks.length,
  totalMs: Math.round(tasks.reduce((s, t) => s + t.duration, 0)),
  maxMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
});

/** Scrolls the list to the end and back in `steps` frames each; returns the longest frame gap. */
function scrollThrough(page: Page, steps: number): Promise<number> {
  return page.getByTestId('log-list').evaluate(async (el, n) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    let last = await frame();
    let worst = 0;
    const step = async (top: number) => {
      el.scrollTop = top;
      const t = await frame();
      worst = Math.max(worst, t - last);
      last = t;
    };
    const end = el.scrollHeight - el.clientHeight;
    for (let i = 1; i <= n; i++) await step((end * i) / n);
    for (let i = n - 1; i >= 0; i--) await step((end * i) / n);
    return worst;
  }, steps);
}

interface Served {
  level: string;
  process: string;
}

/** Every log entry the service holds for `id`, through the same cursor the dashboard uses. */
async function servedLogs(token: string, id: number): Promise<Served[]> {
  const out: Served[] = [];
  for (let after = 0; ;) {
    const page = await call<{ items: Served[]; next: number }>(
      app.serviceUrl,
      'GET',
      `/api/executions/${id}/logs?after=${after}&limit=5000`,
      { token },
    );
    out.push(...page.items);
    if (page.items.length < 5000) return out;
    after = page.next;
  }
}

const rowsInDom = (page: Page) => page.getByTestId('log-list').getByRole('listitem').count();

test('executions log: 100,000 lines load, scroll and filter without freezing', async ({ page }) => {
  test.setTimeout(240_000);
  await ensureFirstAccount(app.serviceUrl);
  const token = await tokenFor(app.serviceUrl, TECH);
  const started = Date.now();
  const id = await runFlood(token, 'Flood 100k', { lines: LINES });
  await waitForStatus(token, id, 'completed', 180_000);
  const serviceMs = Date.now() - started;
  // The worker's lines plus the service's own (start, completion) under process "laneway".
  const served = await servedLogs(token, id);
  const total = served.length;
  const worker = served.filter((l) => l.process !== 'laneway');
  expect(worker).toHaveLength(LINES);
  expect(worker.filter((l) => l.level === 'ERROR')).toHaveLength(floodCount(LINES, 'ERROR'));
  const expectCount = (level?: string, process?: string) =>
    served.filter((l) => (!level || l.level === level) && (!process || l.process === process)).length;

  await observeLongTasks(page);
  await signIn(page, app, TECH);
  // The observer itself is checked: a deliberate 120 ms task must be seen, or zeros mean nothing.
  const tCheck = await now(page);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          const end = performance.now() + 120;
          while (performance.now() < end);
          resolve();
        }),
      ),
  );
  await expect.poll(async () => (await longTasksSince(page, tCheck)).length).toBe(1);
  await page.getByTestId('nav-executions').click();
  const t0 = await now(page);
  await page.getByTestId('executions-table').getByRole('button', { name: 'Flood 100k' }).click();
  const list = page.getByTestId('log-list');
  await expect(list).toHaveAttribute('data-rows', String(total), { timeout: 60_000 });
  const loadMs = (await now(page)) - t0;
  const load = summary(await longTasksSince(page, t0));
  expect(await rowsInDom(page)).toBeLessThanOrEqual(ROW_BOUND);

  // Following: the view sits at the end once everything is in.
  await expect(list.getByText('Completed with 0 output file(s)')).toBeVisible();
  const t1 = await now(page);
  const worstFrameMs = await scrollThrough(page, 60);
  const scroll = summary(await longTasksSince(page, t1));
  expect(await rowsInDom(page)).toBeLessThanOrEqual(ROW_BOUND);
  await expect(list.getByText(`line 1 of ${LINES}`)).toBeVisible();

  // Filters over all 100,000 lines, each one timed from the change to the new count.
  const count = page.getByTestId('log-count');
  const filter = async (testId: string, value: string, expected: number) => {
    const t = await now(page);
    await page.getByTestId(testId).selectOption(value);
    await expect(count).toHaveText(`${expected.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines`);
    return { ms: Math.round((await now(page)) - t), ...summary(await longTasksSince(page, t)) };
  };
  const byLevel = await filter('log-level', 'ERROR', expectCount('ERROR'));
  await expect(list.getByRole('listitem').first()).toContainText('ERROR');
  const byBoth = await filter('log-process', 'align', expectCount('ERROR', 'align'));
  const byProcess = await filter('log-level', '', expectCount(undefined, 'align'));
  await expect(list.getByRole('listitem').first()).toContainText('[align]');
  const cleared = await filter('log-process', '', total);
  expect(await rowsInDom(page)).toBeLessThanOrEqual(ROW_BOUND);

  // Keyboard: the process table region, then the filters, the follow switch and the log
  // itself are reached in order with Tab; the log scrolls with Home/End.
  await page.getByTestId('process-region').focus();
  await expect(page.getByRole('region', { name: 'Processes' })).toBeFocused();
  await page.getByTestId('log-level').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('log-process')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Follow new lines')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('list', { name: 'Execution log' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(list.getByText(`line 1 of ${LINES}`)).toBeVisible();
  await page.keyboard.press('End');
  await expect(list.getByText(`line ${LINES} of ${LINES}`)).toBeVisible();
  expect(floodCount(LINES, undefined, 'align')).toBe(expectCount(undefined, 'align'));

  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('execution-log-100k'), fullPage: true });

  const figures = {
    lines: total,
    serviceRunMs: serviceMs,
    loadMs: Math.round(loadMs),
    loadLongTasks: load,
    scrollWorstFrameMs: Math.round(worstFrameMs),
    scrollLongTasks: scroll,
    filters: { byLevel, byBoth, byProcess, cleared },
    domRows: await rowsInDom(page),
  };
  console.log(`log view figures: ${JSON.stringify(figures)}`);
  // Generous bounds: these catch a freeze (a render over all lines per batch), not jitter.
  expect(loadMs).toBeLessThan(30_000);
  expect(load.maxMs).toBeLessThan(2_000);
  expect(scroll.maxMs).toBeLessThan(1_000);
  for (const f of [byLevel, byBoth, byProcess, cleared]) expect(f.maxMs).toBeLessThan(1_000);
});

test('executions log: follows new lines live, stays put when scrolled up, resumes at the end', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await tokenFor(app.serviceUrl, TECH);
  const total = 4000;
  await signIn(page, app, TECH);
  // 40 batches of 100 lines, 150 ms apart: about six seconds of live lines.
  const id = await runFlood(token, 'Flood live', { lines: total, pace_ms: 150 });
  await page.getByTestId('nav-executions').click();
  await page.getByTestId('executions-table').getByRole('button', { name: 'Flood live' }).click();
  const list = page.getByTestId('log-list');
  const atEnd = () => list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 36);
  const rows = async () => Number(await list.getAttribute('data-rows'));

  await expect.poll(rows, { timeout: 30_000 }).toBeGreaterThan(300);
  expect(await atEnd()).toBe(true);
  const seen = await rows();
  await expect.poll(rows).toBeGreaterThan(seen + 200);
  expect(await atEnd()).toBe(true);

  // Scrolled up to read: new lines arrive, the view stays where the technician put it.
  await list.evaluate((el) => (el.scrollTop = 0));
  const held = await rows();
  await expect.poll(rows).toBeGreaterThan(held + 200);
  expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(list.getByText(`line 1 of ${total}`)).toBeVisible();

  // Back at the end (keyboard), it follows again until the last line.
  await list.focus();
  await page.keyboard.press('End');
  await waitForStatus(token, id, 'completed', 60_000);
  const served = (await servedLogs(token, id)).length;
  await expect(list).toHaveAttribute('data-rows', String(served), { timeout: 30_000 });
  await expect(list.getByText(`line ${total} of ${total}`)).toBeVisible();
  expect(await atEnd()).toBe(true);
  await page.screenshot({ path: screenshotPath('execution-log-follow'), fullPage: true });
});

test('executions log: the dashboard stays responsive while 100,000 lines stream in live', async ({ page }) => {
  test.setTimeout(240_000);
  const token = await tokenFor(app.serviceUrl, TECH);
  await observeLongTasks(page);
  await signIn(page, app, TECH);
  const id = await runFlood(token, 'Flood live 100k', { lines: LINES });
  await page.getByTestId('nav-executions').click();
  const t0 = await now(page);
  await page.getByTestId('executions-table').getByRole('button', { name: 'Flood live 100k' }).click();
  const list = page.getByTestId('log-list');
  // Every pushed update (one per line) is coalesced into one render per frame.
  await expect(page.getByTestId('feed-mode')).toHaveAttribute('data-mode', /live|finished/, { timeout: 60_000 });
  await waitForStatus(token, id, 'completed', 180_000);
  const total = (await servedLogs(token, id)).length;
  await expect(list).toHaveAttribute('data-rows', String(total), { timeout: 60_000 });
  const liveMs = (await now(page)) - t0;
  const live = summary(await longTasksSince(page, t0));
  await expect(list.getByText('Completed with 0 output file(s)')).toBeVisible();
  expect(await rowsInDom(page)).toBeLessThanOrEqual(ROW_BOUND);
  console.log(`live log figures: ${JSON.stringify({ lines: total, liveMs: Math.round(liveMs), longTasks: live })}`);
  expect(live.maxMs).toBeLessThan(2_000);
});

test('executions log: a line wider than the view is read whole by scrolling sideways, not cut off', async ({
  page,
}) => {
  const token = await tokenFor(app.serviceUrl, TECH);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, app, TECH);
  const id = await runFlood(token, 'Flood wide', { lines: 20, wide: 300 });
  await waitForStatus(token, id, 'completed', 60_000);
  await openScreen(page, 'executions');
  await page.getByTestId('executions-table').getByRole('button', { name: 'Flood wide' }).click();
  const list = page.getByTestId('log-list');
  const row = list.getByRole('listitem').filter({ hasText: 'line 1 of 20 ' });
  await expect(row).toContainText('end of the wide line');
  // The row is as wide as its text (it was clipped at the view's width with an ellipsis) ...
  expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // ... and the list scrolls sideways to its end.
  expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await list.evaluate((el) => {
    el.scrollTop = 0;
    el.scrollLeft = el.scrollWidth;
  });
  const end = await row.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect().right;
  });
  const view = await list.evaluate((el) => el.getBoundingClientRect().right);
  expect(end).toBeLessThanOrEqual(view);
  await page.screenshot({ path: screenshotPath('execution-log-wide-line'), fullPage: true });
});
