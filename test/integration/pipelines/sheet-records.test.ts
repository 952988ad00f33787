/**
 * POST /api/data/sheets: an annotation sheet kept as a data record, for the Demultiplexing
 * pipeline's `annotation` parameter. Before it, a sheet could not become a record at all (the
 * chunked upload takes reads and references), so the launch form's Upload refused every sheet.
 * Sheets are made by the programs labs use (pandas, openpyxl, LibreOffice), sent over HTTP to
 * the real service, and a kept LibreOffice tab-separated text is run through the pipeline; bad
 * sheets, wrong parts and a shared-strings bomb are refused with the spec's error body, and
 * nothing is kept for them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { sharedStringsBomb } from '../../helpers/hostile-sheets';
import { libreOfficeConvert, openpyxlNew, pandasCsv } from '../../helpers/sheet-writers';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Record_ = { id: number; filename: string; data_type: string; size: number };

describe('annotation sheets kept as data records (POST /api/data/sheets)', () => {
  let kit: Kit;
  let demux: number;
  const scratch = tempDir('laneway-sheet-records-');
  const lane = () =>
    generateLane({ dir: scratch.path, reads: 600, samples: 3, kind: 'inline', readLength: 60, seed: 9 });

  /** Posts a multipart form of the given parts; the status and the JSON answer. */
  const post = async (parts: Array<[string, Buffer | string, string?]>, token: string | null = kit.adminToken) => {
    const form = new FormData();
    for (const [name, bytes, filename] of parts) {
      if (filename === undefined) form.append(name, String(bytes));
      else form.append(name, new Blob([new Uint8Array(Buffer.from(bytes))]), filename);
    }
    const res = await kit.service.api('/api/data/sheets', {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const records = async () =>
    (await kit.api<{ items: Record_[] }>('/api/data/?per_page=100', kit.adminToken)).body.items;

  beforeAll(async () => {
    kit = await startKit();
    demux = await kit.latestVersion('Demultiplexing');
  });
  afterAll(async () => {
    await kit?.stop();
    scratch.remove();
  });

  it('keeps a pandas CSV and an openpyxl workbook, typed by extension; the same bytes again answer the same record', async () => {
    const rows = lane().barcodes.map((b) => ({
      'Sample Name': b.name,
      Barcode: b.barcode,
      Organism: 'Homo sapiens',
      Category: 'Genomic DNA',
    }));
    const csv = readFileSync(pandasCsv(join(scratch.path, 'lane.csv'), rows));
    const xlsx = readFileSync(openpyxlNew(join(scratch.path, 'lane.xlsx'), rows));

    const a = await post([['annotation', csv, 'lane 7.csv']]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body).toMatchObject({ filename: 'lane 7.csv', data_type: 'csv', size: csv.length, source: 'upload' });
    const b = await post([['annotation', xlsx, 'Lane 7.XLSX']]);
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body).toMatchObject({ data_type: 'xlsx', size: xlsx.length });

    const again = await post([['annotation', csv, 'copy.csv']]);
    expect(again).toMatchObject({ status: 200, body: { id: a.body.id, filename: 'lane 7.csv' } });
    const bytes = await kit.service.api(`/api/data/${a.body.id as number}/download`, {
      headers: { authorization: `Bearer ${kit.adminToken}` },
    });
    expect(Buffer.from(await bytes.arrayBuffer()).equals(csv)).toBe(true);
  });

  it("runs the Demultiplexing pipeline on a kept LibreOffice tab-separated text (Excel's Unicode text), and refuses reads given as the sheet", async () => {
    const l = lane();
    // The tab-separated UTF-16 text with a BOM that LibreOffice (like Excel's "Unicode Text")
    // writes from a workbook; stored under its hash, the run finds its format from its bytes.
    const xlsx = openpyxlNew(
      join(scratch.path, 'for-lo.xlsx'),
      l.barcodes.map((b) => ({ 'Sample Name': b.name, Barcode: b.barcode, Organism: 'Mus musculus', Category: 'RNA' })),
    );
    const loDir = join(scratch.path, 'lo');
    libreOfficeConvert([xlsx], 'txt:Text - txt - csv (StarCalc):9,34,65535,1', loDir, join(scratch.path, 'lo-profile'));
    const text = readFileSync(join(loDir, 'for-lo.txt'));
    expect([...text.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const kept = await post([['annotation', text, 'lane.txt']]);
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.data_type).toBe('txt');
    const input = await kit.upload(kit.adminToken, 'lane_R1.fastq', readFileSync(l.read1));

    const wrong = await kit.run(kit.adminToken, demux, { parameters: { input, annotation: input } });
    expect(wrong).toMatchObject({
      status: 400,
      body: {
        code: 'INVALID_PARAMETERS',
        fields: { annotation: 'must be a xlsx or csv or tsv or txt data record (this one is fastq)' },
      },
    });

    const run = await kit.run(kit.adminToken, demux, {
      parameters: { input, annotation: kept.body.id, layout: 'NNNXXXXXXNN', mismatches: 1 },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 120_000);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    const outputs = done.outputs as Array<{ filename: string; data_type: string }>;
    for (const b of l.barcodes) {
      expect(outputs.some((o) => o.data_type === 'fastq' && o.filename.startsWith(b.name))).toBe(true);
    }
  });

  it('refuses bad sheets, wrong parts and strangers with the error body, and keeps nothing for them', async () => {
    const before = (await records()).length;
    const fastq = '@r1\nACGTACGTAC\n+\nIIIIIIIIII\n';
    const cases: Array<[string, Awaited<ReturnType<typeof post>>, number, string, RegExp?]> = [
      [
        'two samples with one barcode',
        await post([['annotation', 'Sample Name,Barcode\nA,ACGTAC\nB,ACGTAC\n', 'dup.csv']]),
        400,
        'INVALID_ANNOTATION',
      ],
      ['reads named as a sheet', await post([['annotation', fastq, 'reads.csv']]), 400, 'INVALID_ANNOTATION'],
      [
        'a PDF',
        await post([['annotation', '%PDF-1.4\n', 'sheet.pdf']]),
        400,
        'VALIDATION_ERROR',
        /must be an \.xlsx or \.csv sheet/,
      ],
      [
        'reads beside the sheet',
        await post([
          ['annotation', 'Sample Name,Barcode\nA,ACGTAC\n', 'ok.csv'],
          ['file', fastq, 'reads.fastq'],
        ]),
        400,
        'VALIDATION_ERROR',
        /unexpected file part/,
      ],
      ['no sheet part', await post([['name', 'x']]), 400, 'VALIDATION_ERROR', /annotation/],
      [
        'no token',
        await post([['annotation', 'Sample Name,Barcode\nA,ACGTAC\n', 'ok.csv']], null),
        401,
        'UNAUTHENTICATED',
      ],
    ];
    // A sheet past the readers' 20 MiB bound is cut off as it arrives.
    const huge = `Sample Name,Barcode,Organism,Category\n${'A1,ACGTAC,Homo sapiens,RNA\n'.repeat(800_000)}`;
    cases.push(['a 21 MB sheet', await post([['annotation', huge, 'huge.csv']]), 413, 'PAYLOAD_TOO_LARGE', /20 MiB/]);
    const bomb = sharedStringsBomb();
    cases.push([
      'a shared-strings bomb',
      await post([['annotation', readFileSync(bomb.path), bomb.name]]),
      400,
      'INVALID_ANNOTATION',
      /sharedStrings\.xml inflates to more than/,
    ]);
    const json = await kit.service.api('/api/data/sheets', {
      method: 'POST',
      headers: { authorization: `Bearer ${kit.adminToken}`, 'content-type': 'application/json' },
      body: '{"annotation":"Sample Name,Barcode"}',
    });
    cases.push(['a JSON body', { status: json.status, body: await json.json() }, 400, 'VALIDATION_ERROR']);

    for (const [what, res, status, code, message] of cases) {
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body, what).toMatchObject({ code, status });
      expect(typeof res.body.error, what).toBe('string');
      if (message) expect(JSON.stringify(res.body), what).toMatch(message);
    }
    expect((cases[0]![1].body.rows as unknown[]).length).toBeGreaterThan(0);
    expect(await records()).toHaveLength(before);
    // Each refused part's bytes are gone too, not left in the upload area.
    const tmp = join(kit.service.dataDir, 'uploads', 'tmp');
    expect(readdirSync(tmp).filter((f) => f.startsWith('lane-'))).toEqual([]);
  });
});
