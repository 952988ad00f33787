/**
 * Helpers of the issue-16 flows ("a technician's first day"): screenshots at the two sizes a
 * person looks at, and pipeline runs started over the API for set-up.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { screenshotPath } from './fixtures';
import { call } from './service-api';

export const SMALL = { width: 1024, height: 700 };
export const LARGE = { width: 1440, height: 900 };

/**
 * Saves `<name>-1024.png` and `<name>-1440.png`, leaving the page at 1440x900 (`endAt` another
 * size); `accessible` checks the page with axe at each size first.
 */
export async function shootBoth(
  page: Page,
  name: string,
  fullPage = true,
  options: { accessible?: boolean; endAt?: { width: number; height: number } } = {},
): Promise<void> {
  for (const size of [SMALL, LARGE]) {
    await page.setViewportSize(size);
    await laidOutAt(page, size.width);
    if (options.accessible) await expectAccessible(page);
    await page.screenshot({ path: screenshotPath(`${name}-${size.width}`), fullPage });
  }
  if (options.endAt) {
    await page.setViewportSize(options.endAt);
    await laidOutAt(page, options.endAt.width);
  }
}

/** Resolves once the page has its new width and has painted a frame at it. */
async function laidOutAt(page: Page, width: number): Promise<void> {
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Whether the document scrolls sideways (the layout does not hold at this width). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/** Runs pipeline `name` (its latest version) over the API and returns the execution id. */
export async function runPipeline(base: string, token: string, name: string, body: Record<string, unknown>) {
  const e = await call<{ id: number }>(base, 'POST', `/api/pipelines/${encodeURIComponent(name)}/run`, {
    token,
    body: { parameters: {}, ...body },
  });
  return e.id;
}

/** Waits until execution `id` reaches an end state and returns it. */
export async function waitForExecution(base: string, token: string, id: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const e = await call<{ status: string }>(base, 'GET', `/api/executions/${id}`, { token });
    if (['completed', 'failed', 'cancelled'].includes(e.status)) return e;
    if (Date.now() > until) throw new Error(`execution ${id} still ${e.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A seed for service-api's fastq() that no other test of the shared app uses (same bytes are a duplicate). */
export function uniqueSeed(): number {
  return 10_000 + Math.floor(Math.random() * 1e9);
}

/**
 * Posts a two-sample lane (header indexes, 20 reads each) straight to the service, as the lane
 * editor sends it; returns the lane's id.
 */
export async function postTinyLane(base: string, token: string, tag: string): Promise<number> {
  const sheet = `Sample_Name,Barcode,Organism,Category\n${tag}_x,ACGTACGT,Homo sapiens,Genomic DNA\n${tag}_y,TGCATGCA,Homo sapiens,Genomic DNA\n`;
  let reads = '';
  for (const [k, b] of ['ACGTACGT', 'TGCATGCA'].entries())
    for (let i = 0; i < 20; i++)
      reads += `@M1:1:FC:1:1101:${k}${i}:1 1:N:0:${b}\nACGTTGCAACGTTGCAACGT\n+\nIIIIIIIIIIIIIIIIIIII\n`;
  const form = new FormData();
  form.set('name', `Lane ${tag}`);
  form.set('ignore_warnings', 'true');
  form.set('annotation', new Blob([sheet], { type: 'text/csv' }), 'sheet.csv');
  form.set('file', new Blob([reads]), `${tag}_lane.fastq`);
  return (await call<{ id: number }>(base, 'POST', '/api/upload/multiplexed', { token, form })).id;
}
