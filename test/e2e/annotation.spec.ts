import ExcelJS from 'exceljs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { ensureFirstAccount, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';
import { pasteIntoGrid } from './sheet-grid';

const ROWS = 2000;

/** Deterministic 16-base barcodes: random enough that no two of 2,000 are within 2 differences. */
function barcodes(n: number): string[] {
  let x = 0x2545f491;
  const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0);
  return Array.from({ length: n }, () => Array.from({ length: 16 }, () => 'ACGT'[next() % 4]).join(''));
}

/** The grid's header texts, in order. */
async function gridHeaders(page: Page): Promise<string[]> {
  return page
    .getByTestId('sheet-grid')
    .getByRole('columnheader')
    .allTextContents()
    .then((h) => h.slice(1));
}

test('annotation editor: template, keyboard editing, Excel paste of 2,000 rows, live validation, xlsx round trip', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-annotation').click();
  await page.getByRole('button', { name: "Open the service's template" }).click();
  const grid = page.getByTestId('sheet-grid');
  await expect(grid).toBeVisible();
  const headers = await gridHeaders(page);
  const col = (name: string) => headers.findIndex((h) => h.replace(/\s*\*$/, '') === name);
  expect(col('Sample Name')).toBeGreaterThanOrEqual(0);
  expect(col('Barcode')).toBeGreaterThanOrEqual(0);

  // Keyboard: type into the first cell, Tab to the next, Enter commits and moves down.
  await grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.type('liver_1');
  await page.keyboard.press('Enter');
  await expect(grid.locator('#cell-0-0')).toHaveText('liver_1');
  await expect(page.getByTestId('sheet-meta')).toContainText('unsaved changes');

  // Paste 2,000 rows copied from Excel (tab-separated), with one barcode one base from another.
  const codes = barcodes(ROWS);
  codes[6] = codes[5]!.slice(0, 15) + (codes[5]![15] === 'A' ? 'C' : 'A');
  const lines = codes.map((b, i) => {
    const cells = headers.map(() => '');
    cells[col('Sample Name')] = `S${i + 1}`;
    cells[col('Barcode')] = b;
    cells[col('Organism')] = 'Homo sapiens';
    cells[col('Category')] = 'Genomic DNA';
    return cells.join('\t');
  });
  await grid.focus();
  await page.keyboard.press('Control+Home');
  await pasteIntoGrid(page, lines.join('\n'));
  await expect(page.getByTestId('sheet-meta')).toContainText(`${ROWS.toLocaleString('en-US')} rows`);

  // The near-collision is marked on its cell with the pair, the distance and a fix (a warning:
  // with no mismatch allowed the two barcodes still separate, but one error swaps them).
  const counts = page.getByTestId('issue-counts');
  await expect(counts).toHaveText('0 errors, 1 warning', { timeout: 30_000 });
  const issues = page.getByTestId('sheet-issues');
  await expect(issues).toContainText('only 1 apart');
  await expect(issues).toContainText('row 7, S6');
  await issues.getByRole('button', { name: 'Row 8, Barcode' }).click();
  const near = grid.locator(`#cell-6-${col('Barcode')}`);
  await expect(near).toHaveClass(/gcell-warning/);
  await expect(near).toHaveAttribute('title', /Prefer barcodes at least 3 apart/);

  // An exact duplicate is an error, marked on its cell.
  await grid.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('cell-editor').fill(codes[2]!);
  await page.keyboard.press('Enter');
  await expect(counts).toHaveText(/^1 error/, { timeout: 30_000 });
  const dup = grid.locator(`#cell-6-${col('Barcode')}`);
  await expect(dup).toHaveAttribute('aria-invalid', 'true');
  await expect(dup).toHaveAttribute('title', /repeats row 4/);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('annotation-collision'), fullPage: true });

  // Keystroke-to-paint on the 2,000-row sheet: performance marks from keydown to the next frame.
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[] };
    w.__lat = [];
    let n = 0;
    document.addEventListener(
      'keydown',
      () => {
        const id = n++;
        performance.mark(`key-${id}`);
        requestAnimationFrame(() =>
          setTimeout(() => {
            performance.mark(`paint-${id}`);
            w.__lat.push(performance.measure(`k${id}`, `key-${id}`, `paint-${id}`).duration);
          }, 0),
        );
      },
      true,
    );
  });
  await grid.focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  // Typing on a cell replaces its content, as in Excel.
  await page.keyboard.type('edited_name', { delay: 40 });
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const lat = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
  const sorted = [...lat].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const max = sorted[sorted.length - 1]!;
  console.log(
    `annotation grid, ${ROWS} rows: keystroke-to-paint median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms over ${lat.length} keys`,
  );
  expect(lat.length).toBeGreaterThanOrEqual(12);
  expect(median).toBeLessThan(250);

  // Save to xlsx: the template's list validations survive, and the file opens again.
  const download = page.waitForEvent('download');
  await page.getByTestId('save-xlsx').click();
  const dir = mkdtempSync(join(tmpdir(), 'laneway-sheet-'));
  const saved = join(dir, (await download).suggestedFilename());
  await (await download).saveAs(saved);
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const template = new ExcelJS.Workbook();
  const res = await fetch(`${laneway.serviceUrl}/api/annotation/lane`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await template.xlsx.load((await res.arrayBuffer()) as never);
  const out = new ExcelJS.Workbook();
  await out.xlsx.load(readFileSync(saved) as never);
  type WithValidations = ExcelJS.Worksheet & { dataValidations: { model: Record<string, { type: string }> } };
  const before = (template.worksheets[0] as WithValidations).dataValidations.model;
  const after = (out.worksheets[0] as WithValidations).dataValidations.model;
  expect(Object.keys(before).length).toBeGreaterThan(0);
  expect(after).toEqual(before);
  expect(out.worksheets.map((w) => w.name)).toEqual(template.worksheets.map((w) => w.name));
  expect(out.worksheets[0]!.getCell(2, col('Sample Name') + 1).text).toBe('S1');
  expect(out.worksheets[0]!.getCell(3, col('Sample Name') + 1).text).toBe('edited_name');

  await page.getByTestId('open-sheet').setInputFiles(saved);
  await expect(page.getByTestId('sheet-meta')).toContainText(`${ROWS.toLocaleString('en-US')} rows`);
  await expect(grid.locator('#cell-1-0')).toHaveText('edited_name');
});

test('annotation editor: barcodes checked against the first reads of the FASTQ', async ({ page, laneway }) => {
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-annotation').click();
  await page.getByRole('button', { name: 'New blank sheet' }).click();
  const sheet = [
    'A1\tACGTACGT\tHomo sapiens\tGenomic DNA',
    'B2\tTGCATGCA\tHomo sapiens\tGenomic DNA',
    'C3\tGGAACCTT\tHomo sapiens\tGenomic DNA',
  ];
  await page.getByTestId('sheet-grid').focus();
  await pasteIntoGrid(page, sheet.join('\n'));
  await expect(page.getByTestId('issue-counts')).toContainText('0 errors');

  // Reads: 30 for A1, 20 for B2, none for C3 and 15 with a barcode not on the sheet.
  const dir = mkdtempSync(join(tmpdir(), 'laneway-fq-'));
  const fq = join(dir, 'lane.fastq');
  let text = '';
  const add = (n: number, index: string) => {
    for (let i = 0; i < n; i++)
      text += `@M1:1:FC:1:1101:${i}:1 1:N:0:${index}\nACGTACGTACGTACGTACGT\n+\nIIIIIIIIIIIIIIIIIIII\n`;
  };
  add(30, 'ACGTACGT');
  add(20, 'TGCATGCA');
  add(15, 'TTTTCCCC');
  writeFileSync(fq, text);
  await page.getByTestId('open-fastq').setInputFiles(fq);
  const panel = page.getByTestId('barcode-check');
  await panel.getByRole('button', { name: /Check the first/ }).click();
  const expected = panel.getByTestId('barcode-expected');
  await expect(expected.getByRole('row', { name: /A1/ })).toContainText('30');
  await expect(expected.getByRole('row', { name: /B2/ })).toContainText('20');
  await expect(expected.getByRole('row', { name: /C3/ })).toContainText('0');
  await expect(panel.getByTestId('barcode-unknown')).toContainText('TTTTCCCC: 15 reads');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('annotation-barcode-check'), fullPage: true });
});

test('annotation editor: submit the lane, accept its warnings, follow demultiplexing to its samples', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-annotation').click();
  await page.getByRole('button', { name: 'New blank sheet' }).click();
  const tag = `L${Date.now() % 100000}`;
  // Four-base barcodes: valid, but short, so the service asks before demultiplexing.
  const rows = [
    [`${tag}_a`, 'ACGT'],
    [`${tag}_b`, 'TGCA'],
    [`${tag}_c`, 'GTAC'],
  ];
  await page.getByTestId('sheet-grid').focus();
  await pasteIntoGrid(page, rows.map(([n, b]) => `${n}\t${b}\tHomo sapiens\tGenomic DNA`).join('\n'));
  await expect(page.getByTestId('issue-counts')).toHaveText(/^0 errors, [1-9]/);

  const dir = mkdtempSync(join(tmpdir(), 'laneway-lane-'));
  const fq = join(dir, 'lane.fastq');
  let text = '';
  rows.forEach(([, b], k) => {
    for (let i = 0; i < 10 * (k + 1); i++)
      text += `@M1:1:FC:1:1101:${k}${i}:1 1:N:0:${b}\nACGTTGCAACGTTGCAACGT\n+\nIIIIIIIIIIIIIIIIIIII\n`;
  });
  writeFileSync(fq, text);
  await page.getByTestId('open-fastq').setInputFiles(fq);
  const submit = page.getByTestId('lane-submit');
  await submit.getByLabel('Lane name').fill(`Lane ${tag}`);
  await submit.getByRole('button', { name: 'Upload and demultiplex' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('lane-warnings')).toContainText('short');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('lane-warnings'), fullPage: true });
  await dialog.getByRole('button', { name: 'Submit anyway (ignore warnings)' }).click();

  const status = submit.getByTestId('lane-status');
  await expect(status).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  const samples = status.getByTestId('lane-samples');
  await expect(samples.getByRole('row', { name: new RegExp(`${tag}_a ACGT 10 `) })).toBeVisible();
  await expect(samples.getByRole('row', { name: new RegExp(`${tag}_c GTAC 30 `) })).toBeVisible();
  await page.screenshot({ path: screenshotPath('lane-demultiplexed'), fullPage: true });
});
