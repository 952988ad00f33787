/**
 * The week's tools: the embedded service's process (to kill it), a run folder of two paired
 * samples large enough that an upload is still going when the service dies, a catalogue with
 * the shipped pipelines plus one that waits on a gate file (a run that is surely running when
 * the service dies), pictures at both sizes with axe, and the service log read as JSON lines.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../axe';
import { LARGE, SMALL } from '../first-day';
import { fastq } from '../service-api';

export { servicePid } from '../app-process';

/**
 * A MiSeq-style run folder (`<sample>_S<n>_L001_R<r>_001.fastq`, bcl2fastq's naming) with two
 * paired samples of `reads` reads each; about 120 bytes a read.
 */
export function makeRunFolder(tag: string, reads: number): { dir: string; samples: string[] } {
  const dir = mkdtempSync(join(tmpdir(), `laneway-week-run-${tag}-`));
  const samples = [`Kidney-${tag}`, `Heart-${tag}`];
  samples.forEach((name, i) => {
    const seed = 50_000 + Math.floor(Math.random() * 1e9);
    for (const r of [1, 2]) writeFileSync(join(dir, `${name}_S${i + 1}_L001_R${r}_001.fastq`), fastq(reads, seed + r));
  });
  return { dir, samples };
}

const SHIPPED = fileURLToPath(new URL('../../../resources/pipelines', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../integration/lifecycle/fixtures', import.meta.url));

/**
 * A pipelines folder (LANEWAY_PIPELINES_DIR) with the shipped manifests and the lifecycle
 * fixtures' "Test Resumable" (its second step waits for a gate file when asked to).
 */
export function weekCatalogue(): string {
  const root = mkdtempSync(join(tmpdir(), 'laneway-week-pipelines-'));
  const manifests = join(root, 'manifests');
  mkdirSync(manifests);
  for (const f of readdirSync(SHIPPED).filter((f) => f.endsWith('.json')))
    copyFileSync(join(SHIPPED, f), join(manifests, f));
  symlinkSync(join(SHIPPED, 'workflows'), join(manifests, 'workflows'));
  copyFileSync(join(FIXTURES, 'manifests', 'test-resumable.json'), join(manifests, 'test-resumable.json'));
  symlinkSync(join(FIXTURES, 'workflows'), join(root, 'workflows'));
  return manifests;
}

/** Pictures of the walk: docs/walkthrough with LANEWAY_UPDATE_DOCS=1, else test/e2e/screenshots/week. */
export const PICTURES =
  process.env.LANEWAY_UPDATE_DOCS === '1'
    ? fileURLToPath(new URL('../../../docs/walkthrough', import.meta.url))
    : join('test', 'e2e', 'screenshots', 'week');

/** Checks the page with axe and saves `<name>-1024.png` and `<name>-1440.png` (what is on screen), notes dismissed. */
export async function shoot(
  page: Page,
  name: string,
  { keepNotes = false, arrange }: { keepNotes?: boolean; arrange?: () => Promise<void> } = {},
): Promise<void> {
  await expectAccessible(page);
  // Notes of earlier days (a failure stays until dismissed) would cover this day's picture.
  if (!keepNotes) {
    const dismiss = page.getByTestId('toasts').getByRole('button', { name: 'Dismiss' });
    // A passing note may fade by itself between the look and the click: that one needs no click.
    for (const button of await dismiss.all()) await button.click({ timeout: 2000 }).catch(() => undefined);
  }
  mkdirSync(PICTURES, { recursive: true });
  for (const size of [SMALL, LARGE]) {
    await page.setViewportSize(size);
    // What is in view may move when the window's size does: arranged again at each size.
    await arrange?.();
    await page.screenshot({ path: join(PICTURES, `${name}-${size.width}.png`) });
  }
}

export interface LogLine {
  event: string;
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The service log's lines, parsed (one JSON object a line). */
export function readServiceLog(home: string): LogLine[] {
  return readFileSync(join(home, 'service', 'service.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}
