/**
 * One xlsx path (issue 12): a grid with no workbook behind it (here a CSV written by pandas) is
 * saved into the service's lane template, column by header name, and openpyxl (Debian's) finds
 * the template's sheets and list validations and the grid's values in their columns; the
 * service takes the saved file as a lane's annotation. With the template out of reach nothing
 * is saved and the screen says why. Under a title above the headers the editor numbers rows as
 * the service does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { libreOfficeConvert, openpyxlInspect, openpyxlTitled, pandasCsv } from '../helpers/sheet-writers';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

interface LaneAnswer {
  id: number;
  status: string;
  samples?: Array<{ name: string; barcode?: string; sample_id: number | null; reads: number | null }>;
}

/** A FASTQ whose reads carry each barcode in the header, `counts[i]` reads for `barcodes[i]`. */
function laneFastq(path: string, barcodes: string[], counts: number[]): string {
  let text = '';
  barcodes.forEach((b, k) => {
    for (let i = 0; i < counts[k]!; i++)
      text += `@M1:1:FC:1:1101:${k}${i}:1 1:N:0:${b}\nACGTTGCAACGTTGCAACGT\n+\nIIIIIIIIIIIIIIIIIIII\n`;
  });
  writeFileSync(path, text);
  return path;
}

/** Posts a lane (sheet and reads) straight to the service, as any client would. */
async function postLane(base: string, token: string, name: string, sheet: string, fastq: string): Promise<Response> {
  const form = new FormData();
  form.set('name', name);
  form.set('annotation', new Blob([new Uint8Array(readFileSync(sheet))]), 'annotation.xlsx');
  form.set('file', new Blob([new Uint8Array(readFileSync(fastq))]), 'lane.fastq');
  return fetch(new URL('/api/upload/multiplexed', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

/** Clicks Save as .xlsx and keeps the download in `dir`. */
async function saveDownload(page: Page, dir: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId('save-xlsx').click();
  const file = join(dir, (await download).suggestedFilename());
  await (await download).saveAs(file);
  return file;
}

const label = (h: string | null) => (h ?? '').replace(/\s*\*$/, '');

test("annotation editor: a pandas CSV saved as xlsx goes into the service's template, and the service takes it", async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-csv-save-'));
  const tag = `C${Date.now() % 100000}`;
  // Columns in another order than the template's, one under another spelling (sample_name),
  // most optional ones missing, and one the template does not have (Flowcell Lane).
  const samples = [
    { barcode: 'ACCTGAAG', name: `${tag}_a`, tissue: 'liver', organism: 'Homo sapiens', lane: 3, replicate: 1 },
    { barcode: 'TGGCATTC', name: `${tag}_b`, tissue: 'liver', organism: 'Mus musculus', lane: 3, replicate: 2 },
    { barcode: 'GTAAGCCT', name: `${tag}_c`, tissue: 'brain', organism: 'Homo sapiens', lane: 4, replicate: 1 },
  ];
  const csv = pandasCsv(
    join(dir, 'lane.csv'),
    samples.map((s) => ({
      Barcode: s.barcode,
      sample_name: s.name,
      Tissue: s.tissue,
      Category: 'Total RNA',
      Organism: s.organism,
      'Flowcell Lane': s.lane,
      Replicate: s.replicate,
    })),
  );
  expect(readFileSync(csv, 'utf8').split('\n')[0]).toBe(
    'Barcode,sample_name,Tissue,Category,Organism,Flowcell Lane,Replicate',
  );

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-annotation').click();
  await page.getByTestId('open-sheet').setInputFiles(csv);
  const grid = page.getByTestId('sheet-grid');
  await expect(page.getByTestId('sheet-meta')).toContainText('lane.csv');
  await expect(grid.locator('#cell-0-1')).toHaveText(`${tag}_a`);
  await expect(page.getByTestId('issue-counts')).toHaveText('0 errors, 0 warnings', { timeout: 30_000 });
  // An edit in the editor is what gets saved, not the CSV as it was.
  await grid.locator('#cell-2-2').click();
  await page.keyboard.type('kidney');
  await page.keyboard.press('Enter');
  await expect(grid.locator('#cell-2-2')).toHaveText('kidney');

  // The service's template is out of reach: nothing is saved, and the screen says why.
  let downloads = 0;
  const count = () => downloads++;
  page.on('download', count);
  await page.route('**/api/annotation/lane', (route) => route.abort('connectionrefused'));
  await page.getByTestId('save-xlsx').click();
  const notice = page.getByTestId('error-notice');
  await expect(notice).toContainText("The service's lane template could not be fetched");
  await expect(notice).toContainText('nothing was saved or sent: try again once the service answers');
  await expect(page.getByTestId('sheet-meta')).toContainText('unsaved changes');
  expect(downloads).toBe(0);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('annotation-save-template-unreachable'), fullPage: true });
  await page.unroute('**/api/annotation/lane');
  page.off('download', count);

  // With the service back, Save writes the grid into the template.
  const saved = await saveDownload(page, dir);
  expect(saved.endsWith('lane.xlsx')).toBe(true);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('sheet-meta')).not.toContainText('unsaved changes');
  await page.screenshot({ path: screenshotPath('annotation-csv-saved'), fullPage: true });

  const templateFile = join(dir, 'template.xlsx');
  const res = await fetch(new URL('/api/annotation/lane', laneway.serviceUrl), {
    headers: { authorization: `Bearer ${token}` },
  });
  writeFileSync(templateFile, new Uint8Array(await res.arrayBuffer()));
  const template = openpyxlInspect(templateFile);
  const out = openpyxlInspect(saved);

  // The template's sheets and its validations (the Organism and Category lists among them).
  expect(out.sheets).toEqual(template.sheets);
  expect(out.sheets).toEqual(expect.arrayContaining(['Examples', 'Field descriptions', 'Lists']));
  expect(out.validations).toEqual(template.validations);
  const lists = out.validations.filter((v) => v.type === 'list');
  expect(lists.map((v) => v.formula1)).toEqual([
    expect.stringMatching(/^Lists!\$A\$2:\$A\$\d+$/),
    expect.stringMatching(/^Lists!\$B\$2:\$B\$\d+$/),
  ]);

  // The template's headers in its own order, the extra column after its last one.
  const templateHeaders = template.rows[0]!;
  expect(out.rows[0]).toEqual([...templateHeaders, 'Flowcell Lane']);
  const col = (name: string) => out.rows[0]!.findIndex((h) => label(h) === name);
  expect(col('Sample Name')).toBe(0);
  expect(col('Flowcell Lane')).toBe(templateHeaders.length);
  // Each value in its column; the template's columns the CSV lacks stay empty.
  expect(out.rows.slice(1)).toHaveLength(samples.length);
  samples.forEach((s, i) => {
    const row = out.rows[i + 1]!;
    expect(row[col('Sample Name')]).toBe(s.name);
    expect(row[col('Barcode')]).toBe(s.barcode);
    expect(row[col('Organism')]).toBe(s.organism);
    expect(row[col('Category')]).toBe('Total RNA');
    expect(row[col('Tissue')]).toBe(i === 2 ? 'kidney' : s.tissue);
    expect(row[col('Replicate')]).toBe(String(s.replicate));
    expect(row[col('Flowcell Lane')]).toBe(String(s.lane));
    expect(row[col('Condition')]).toBeNull();
    expect(row[col('Notes')]).toBeNull();
  });

  // The service takes the saved file as a lane's annotation and demultiplexes by it.
  const fq = laneFastq(
    join(dir, 'lane.fastq'),
    samples.map((s) => s.barcode),
    [10, 20, 30],
  );
  const posted = await postLane(laneway.serviceUrl, token, `Lane ${tag}`, saved, fq);
  expect(posted.status, await posted.clone().text()).toBe(202);
  const lane = (await posted.json()) as LaneAnswer;
  let done: LaneAnswer = lane;
  await expect
    .poll(
      async () => (done = await call<LaneAnswer>(laneway.serviceUrl, 'GET', `/api/lanes/${lane.id}`, { token })).status,
      { timeout: 60_000 },
    )
    .toBe('complete');
  expect(done.samples!.map((s) => [s.name, s.barcode, s.reads])).toEqual(
    samples.map((s, i) => [s.name, s.barcode, 10 * (i + 1)]),
  );
});

test("annotation editor: under a title above the headers, its row numbers are the service's", async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const token = await tokenFor(laneway.serviceUrl, TECH);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-titled-'));
  // openpyxl: a title in row 1, headers in row 2, samples from row 3; the second has an organism
  // outside the vocabulary (sheet row 4) and the third repeats the first's barcode (row 5).
  const sheet = openpyxlTitled(join(dir, 'titled.xlsx'), 'Run 42: lane annotation', [
    { 'Sample Name': 'T_a', Barcode: 'ACCTGAAG', Organism: 'Homo sapiens', Category: 'Total RNA' },
    { 'Sample Name': 'T_b', Barcode: 'TGGCATTC', Organism: 'Homo sapiens typo', Category: 'Total RNA' },
    { 'Sample Name': 'T_c', Barcode: 'ACCTGAAG', Organism: 'Homo sapiens', Category: 'Total RNA' },
  ]);
  const fq = laneFastq(join(dir, 'lane.fastq'), ['ACCTGAAG', 'TGGCATTC'], [5, 5]);
  const refused = await postLane(laneway.serviceUrl, token, 'titled', sheet, fq);
  const body = (await refused.json()) as { code: string; rows: Array<{ row: number; column: string }> };
  expect(refused.status).toBe(400);
  expect(body.code).toBe('INVALID_ANNOTATION');
  const byService = [...new Set(body.rows.map((r) => `Row ${r.row}, ${r.column}`))].sort();
  expect(byService).toEqual(expect.arrayContaining(['Row 4, Organism', 'Row 5, Barcode']));

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-annotation').click();
  await page.getByTestId('open-sheet').setInputFiles(sheet);
  const grid = page.getByTestId('sheet-grid');
  await expect(grid.locator('#cell-0-0')).toHaveText('T_a');
  // The headers are sheet row 2 and the grid's first row is sheet row 3, as in the spreadsheet.
  await expect(grid.getByRole('columnheader').first()).toHaveText('2');
  await expect(grid.getByRole('rowheader').first()).toHaveText('3');
  const issues = page.getByTestId('sheet-issues');
  await expect(page.getByTestId('issue-counts')).toHaveText(/^2 errors/, { timeout: 30_000 });
  const byEditor = (await issues.locator('.issue-error button').allTextContents()).sort();
  expect(byEditor).toEqual(byService);
  // Going to an issue puts the cursor on its cell: sheet row 4 is the grid's second row.
  await issues.getByRole('button', { name: 'Row 4, Organism' }).click();
  await expect(grid.locator('#cell-1-2')).toHaveAttribute('aria-selected', 'true');
  await expect(grid.locator('#cell-1-2')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Delete row 4' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('annotation-title-row-numbers'), fullPage: true });

  // The same sheet as CSV from LibreOffice, title line included: the editor finds the headers
  // under the title as the service does. The CSV has no workbook, so it is saved into the
  // template (headers in row 1), and the rows are numbered as in that file: the service, sent
  // the saved file, names the same rows.
  libreOfficeConvert([sheet], 'csv:Text - txt - csv (StarCalc):44,34,76,1', join(dir, 'lo'), join(dir, 'lo-profile'));
  const csv = join(dir, 'lo', 'titled.csv');
  expect(readFileSync(csv, 'utf8').split('\n')[0]).toMatch(/^"?Run 42: lane annotation"?,*$/);
  await page.getByTestId('open-sheet').setInputFiles(csv);
  await expect(page.getByTestId('sheet-meta')).toContainText('titled.csv');
  expect((await grid.getByRole('columnheader').allTextContents()).slice(1)).toEqual([
    'Sample Name',
    'Barcode',
    'Organism',
    'Category',
  ]);
  await expect(grid.locator('#cell-0-0')).toHaveText('T_a');
  await expect(grid.getByRole('rowheader').first()).toHaveText('2');
  // (Polled: until the new sheet's check lands, the list is the workbook's.)
  const errorList = async () => (await issues.locator('.issue-error button').allTextContents()).sort();
  await expect.poll(errorList, { timeout: 30_000 }).toEqual(['Row 3, Organism', 'Row 4, Barcode']);
  const csvByEditor = await errorList();
  const saved = await saveDownload(page, dir);
  const again = await postLane(laneway.serviceUrl, token, 'titled csv', saved, fq);
  expect(again.status).toBe(400);
  const againBody = (await again.json()) as { rows: Array<{ row: number; column: string }> };
  expect([...new Set(againBody.rows.map((r) => `Row ${r.row}, ${r.column}`))].sort()).toEqual(csvByEditor);
});
