/**
 * Issue 13 part 1: workbooks from the writers labs use are read, the same by the service and by
 * the editor. Both templates (GET /api/annotation/lane and /sample) go through openpyxl (unchanged
 * and filled in by a script), pandas (read_excel + to_excel, and a plain to_excel) and
 * LibreOffice (xlsx, semicolon CSV, UTF-16 "Unicode text"), exceljs writes one itself, and each
 * result is read by the service's reader, by the editor's (src/renderer, run here under Node),
 * and, for lanes, posted to the real service. Google Sheets and Excel cannot run here; what they
 * write differently (relative targets, `x:` prefixes, cells without `r`) is covered by the
 * reader's unit tests.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { intoWorkbook, readXlsx, writeXlsx } from '../../../src/renderer/src/features/annotation/xlsx-sheet';
import { readDelimitedFile } from '../../../src/shared/sheets';
import {
  libreOfficeConvert,
  openpyxlFill,
  openpyxlInspect,
  openpyxlNew,
  openpyxlRead,
  pandasFrame,
  pandasRoundTrip,
  type WriterRow,
} from '../../helpers/sheet-writers';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from '../identity/helpers';
import { fastqBytes } from './upload-helpers';

const LANE_ROWS: WriterRow[] = [
  {
    'Sample Name': 'liver_ctrl_1',
    Barcode: 'ACGTACGT',
    Organism: 'Homo sapiens',
    Category: 'Total RNA',
    'Time Point': { date: '2024-03-01' },
    Replicate: 1,
    Notes: 'pooled, 2 µl; "fresh"',
  },
  {
    'Sample Name': 'brain_ko_2',
    Barcode: 'TGCATGCA',
    Organism: 'Mus musculus',
    Category: 'mRNA',
    Replicate: 2,
    Notes: 'two\nlines',
  },
  { 'Sample Name': 'kidney_3', Barcode: 'GATCCTAG', Organism: 'Homo sapiens', Category: 'Total RNA', Replicate: 3 },
];
const SAMPLE_ROWS: WriterRow[] = LANE_ROWS.map(({ Barcode: _, ...rest }) => rest);

/** The rows as a reader should give them: text by label, the template's " *" dropped, empty cells left out. */
function expected(rows: WriterRow[]): Array<Record<string, string>> {
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'object' ? v.date : String(v)] as const)),
  );
}
const byLabel = (rows: Array<{ values: Record<string, string> }>) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r.values)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => [k.replace(/\s*\*$/, ''), v.replace(/\r\n/g, '\n')] as const),
    ),
  );

describe('workbooks and exports from every writer labs use are read, by the service and by the editor', () => {
  const dir = tempDir('laneway-writers-');
  const at = (name: string) => join(dir.path, name);
  let service: TestService;
  let alice: Session;

  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
    for (const kind of ['lane', 'sample'] as const) {
      const res = await service.api(`/api/annotation/${kind}`, { headers: { authorization: `Bearer ${alice.token}` } });
      expect(res.status).toBe(200);
      writeFileSync(at(`${kind}-template.xlsx`), Buffer.from(await res.arrayBuffer()));
    }
    // exceljs itself: the template filled in by a Node script.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(at('lane-template.xlsx'));
    const ws = wb.worksheets[0]!;
    const headers = (ws.getRow(1).values as unknown[]).map((h) => String(h ?? '').replace(/\s*\*$/, ''));
    LANE_ROWS.forEach((row, i) => {
      for (const [k, v] of Object.entries(row)) {
        ws.getCell(i + 2, headers.indexOf(k)).value = typeof v === 'object' ? new Date(`${v.date}T00:00:00Z`) : v;
        if (typeof v === 'object') ws.getCell(i + 2, headers.indexOf(k)).numFmt = 'yyyy-mm-dd';
      }
    });
    await wb.xlsx.writeFile(at('exceljs-filled-lane.xlsx'));

    openpyxlFill(at('lane-template.xlsx'), at('openpyxl-unchanged-lane.xlsx'), []);
    openpyxlFill(at('sample-template.xlsx'), at('openpyxl-unchanged-sample.xlsx'), []);
    openpyxlFill(at('lane-template.xlsx'), at('openpyxl-filled-lane.xlsx'), LANE_ROWS);
    openpyxlFill(at('sample-template.xlsx'), at('openpyxl-filled-sample.xlsx'), SAMPLE_ROWS);
    openpyxlNew(at('openpyxl-new-lane.xlsx'), LANE_ROWS);
    pandasRoundTrip(at('openpyxl-filled-lane.xlsx'), at('pandas-roundtrip-lane.xlsx'));
    pandasRoundTrip(at('openpyxl-filled-sample.xlsx'), at('pandas-roundtrip-sample.xlsx'));
    pandasFrame(at('pandas-frame-lane.xlsx'), LANE_ROWS);

    // LibreOffice: both templates as they are and filled in, saved as xlsx; the filled lane as
    // semicolon CSV (European locales) and as UTF-16 tab-separated text (Excel's "Unicode text").
    for (const name of ['lane-template', 'sample-template', 'openpyxl-filled-lane', 'openpyxl-filled-sample']) {
      copyFileSync(at(`${name}.xlsx`), at(`lo-${name}.xlsx`));
    }
    const profile = at('lo-profile');
    const loInputs = ['lane-template', 'sample-template', 'openpyxl-filled-lane', 'openpyxl-filled-sample'].map((n) =>
      at(`lo-${n}.xlsx`),
    );
    libreOfficeConvert(loInputs, 'xlsx:Calc MS Excel 2007 XML', at('lo'), profile);
    libreOfficeConvert(
      [at('lo-openpyxl-filled-lane.xlsx')],
      'csv:Text - txt - csv (StarCalc):59,34,76,1',
      at('lo'),
      profile,
    );
    libreOfficeConvert(
      [at('lo-openpyxl-filled-lane.xlsx')],
      'txt:Text - txt - csv (StarCalc):9,34,65535,1',
      at('lo'),
      profile,
    );
  }, 300_000);
  afterAll(async () => {
    await service.stop();
    dir.remove();
  });

  const lo = (name: string) => join(dir.path, 'lo', name);
  const filledLanes = () => ({
    'exceljs (the template filled by a Node script)': at('exceljs-filled-lane.xlsx'),
    'openpyxl (the template filled by a script)': at('openpyxl-filled-lane.xlsx'),
    'openpyxl (a new workbook)': at('openpyxl-new-lane.xlsx'),
    'pandas read_excel + to_excel of the filled template': at('pandas-roundtrip-lane.xlsx'),
    'pandas DataFrame.to_excel': at('pandas-frame-lane.xlsx'),
    'LibreOffice Calc (the filled template saved as xlsx)': lo('lo-openpyxl-filled-lane.xlsx'),
    'LibreOffice Calc CSV with semicolons': lo('lo-openpyxl-filled-lane.csv'),
    'LibreOffice Calc UTF-16 tab-separated text': lo('lo-openpyxl-filled-lane.txt'),
  });

  it('reads every filled lane sheet to the same rows in the service reader and the editor', async () => {
    for (const [writer, path] of Object.entries(filledLanes())) {
      const service = await readSheet(path, path.split('/').pop()!);
      expect(byLabel(service.rows), writer).toEqual(expected(LANE_ROWS));
      if (!path.endsWith('.xlsx')) continue;
      const editor = await readXlsx(new Uint8Array(readFileSync(path)));
      expect(editor.headers, writer).toEqual(service.headers);
      const editorRows = editor.rows.map((cells) => ({
        values: Object.fromEntries(editor.headers.map((h, c) => [h, cells[c] ?? ''])),
      }));
      expect(byLabel(editorRows), writer).toEqual(expected(LANE_ROWS));
    }
  });

  it('accepts every filled lane sheet over HTTP: 202 and one sample per row', async () => {
    for (const [writer, path] of Object.entries(filledLanes())) {
      const form = new FormData();
      form.append('name', `lane from ${writer}`);
      form.append('ignore_warnings', 'true');
      form.append('annotation', new Blob([new Uint8Array(readFileSync(path))]), path.split('/').pop()!);
      form.append('file', new Blob([new Uint8Array(fastqBytes(20))]), 'reads.fastq');
      const res = await service.api('/api/upload/multiplexed', {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}` },
        body: form,
      });
      const body = (await res.json()) as { samples?: Array<{ name: string; barcode: string }> };
      expect(res.status, `${writer}: ${JSON.stringify(body)}`).toBe(202);
      expect(body.samples!.map((s) => [s.name, s.barcode])).toEqual(
        LANE_ROWS.map((r) => [r['Sample Name'], r.Barcode]),
      );
    }
  });

  it('reads the sample template filled by openpyxl, round-tripped by pandas and by LibreOffice', async () => {
    for (const path of [
      at('openpyxl-filled-sample.xlsx'),
      at('pandas-roundtrip-sample.xlsx'),
      lo('lo-openpyxl-filled-sample.xlsx'),
    ]) {
      const read = await readSheet(path, 'sample.xlsx');
      expect(byLabel(read.rows), path).toEqual(expected(SAMPLE_ROWS));
      const editor = await readXlsx(new Uint8Array(readFileSync(path)));
      expect(
        editor.rows.map((r) => r[0]),
        path,
      ).toEqual(SAMPLE_ROWS.map((r) => r['Sample Name']));
    }
  });

  it('opens both templates unchanged from exceljs, openpyxl and LibreOffice: the headers, no rows, no library error', async () => {
    for (const kind of ['lane', 'sample'] as const) {
      const original = await readSheet(at(`${kind}-template.xlsx`), 'x.xlsx');
      expect(original.headers[0]).toBe('Sample Name *');
      for (const path of [at(`openpyxl-unchanged-${kind}.xlsx`), lo(`lo-${kind}-template.xlsx`)]) {
        const read = await readSheet(path, 'x.xlsx');
        expect(read.headers, path).toEqual(original.headers);
        expect(read.rows, path).toEqual([]);
        expect((await readXlsx(new Uint8Array(readFileSync(path)))).headers, path).toEqual(original.headers);
      }
    }
    // The issue's report: openpyxl's unchanged lane template answered "Cannot read properties of
    // undefined (reading 'comments')". Now it is read, and the answer is about its content.
    const form = new FormData();
    form.append('name', 'unchanged template');
    form.append('annotation', new Blob([new Uint8Array(readFileSync(at('openpyxl-unchanged-lane.xlsx')))]), 'l.xlsx');
    form.append('file', new Blob([new Uint8Array(fastqBytes(20))]), 'reads.fastq');
    const res = await service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    const body = (await res.json()) as { error: string; code: string; rows: Array<{ message: string }> };
    expect(res.status).toBe(400);
    expect(body.code).toBe('INVALID_ANNOTATION');
    expect(body.error).not.toMatch(/Cannot read properties|TypeError|cannot be opened/);
    expect(body.rows.map((r) => r.message)).toContain('The sheet has no sample rows');
  });

  it("saves the editor's edit of an openpyxl workbook so that openpyxl and the service read it", async () => {
    const opened = await readXlsx(new Uint8Array(readFileSync(at('openpyxl-filled-lane.xlsx'))));
    const notes = opened.headers.indexOf('Notes');
    opened.rows[2]![notes] = 'edited in Laneway';
    writeFileSync(at('edited.xlsx'), writeXlsx(opened));
    const byOpenpyxl = openpyxlRead(at('edited.xlsx'));
    expect(byOpenpyxl[0]).toEqual(opened.headers);
    expect(byOpenpyxl[3]![notes]).toBe('edited in Laneway');
    const read = await readSheet(at('edited.xlsx'), 'edited.xlsx');
    expect(read.rows.map((r) => r.values.Notes)).toEqual(['pooled, 2 µl; "fresh"', 'two\nlines', 'edited in Laneway']);
  });

  it('lays a LibreOffice CSV, columns reordered and one added, into the lane template by header name', async () => {
    // The grid as the editor holds a CSV: its first line the headers, here in reverse order and
    // with a column the template lacks, and without the template's Sex and Notes columns.
    const [head = [], ...body] = readDelimitedFile(readFileSync(lo('lo-openpyxl-filled-lane.csv'))).rows.map(
      (r) => r.fields,
    );
    const keep = head.map((h, i) => i).filter((i) => !/^(Sex|Notes)$/.test(head[i]!));
    const order = [...keep].reverse();
    const headers = [...order.map((i) => head[i]!.replace(/\s*\*$/, '')), 'Flowcell Lane'];
    const rows = body.map((r, k) => [...order.map((i) => r[i] ?? ''), String(k + 1)]);
    const template = await readXlsx(new Uint8Array(readFileSync(at('lane-template.xlsx'))));
    writeFileSync(at('csv-into-template.xlsx'), writeXlsx(intoWorkbook(template, headers, rows)));

    const view = openpyxlInspect(at('csv-into-template.xlsx'));
    const original = openpyxlInspect(at('lane-template.xlsx'));
    expect(view.sheets).toEqual(original.sheets);
    expect(view.validations).toEqual(original.validations);
    expect(view.rows[0]).toEqual([...original.rows[0]!, 'Flowcell Lane']);
    const read = await readSheet(at('csv-into-template.xlsx'), 'csv-into-template.xlsx');
    expect(byLabel(read.rows)).toEqual(
      expected(LANE_ROWS.map(({ Notes: _, ...r }, k) => ({ ...r, 'Flowcell Lane': String(k + 1) }))),
    );
  });
});
