/**
 * Issue 11 rows 2 and 3: hostile annotation sheets sent as lanes. Each is refused with 400
 * INVALID_ANNOTATION naming the bound it exceeds, while /api/health keeps answering (the sheet
 * is parsed in the service's sheet-parsing thread) and the service stays alive and usable.
 * The event loop's longest stall is measured while the sheet is parsed: the issue saw 2 s to
 * 126 s; the bound below is generous, it only tells "blocked" from "responsive".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { adminSuite } from '../identity/admin-suite';
import {
  millionColumnCsv,
  sharedStringsBomb,
  xfdWorkbook,
  xfdWorkbookSmall,
  type HostileSheet,
} from '../../helpers/hostile-sheets';
import { tempDir } from '../../helpers/temp';
import { fastqBytes } from './upload-helpers';

const STALL_BOUND_MS = 1_000;

describe('hostile annotation sheets are refused by a named bound, off the event loop', () => {
  const dir = tempDir();
  const suite = adminSuite('alice', 120_000);
  afterAll(() => {
    dir.remove();
  });

  const postLane = async (sheet: Blob, filename: string) => {
    const form = new FormData();
    form.append('name', 'hostile lane');
    form.append('annotation', sheet, filename);
    form.append('file', new Blob([new Uint8Array(fastqBytes(20))]), 'reads.fastq');
    const res = await suite.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.admin.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /** Sends the sheet while /api/health is asked every 10 ms; answers the lane's reply and the health replies. */
  const sendWhileProbing = async (sheet: HostileSheet) => {
    const bytes = new Blob([new Uint8Array(readFileSync(sheet.path))]);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let done = false;
    const health: number[] = [];
    const probe = (async () => {
      while (!done) {
        const res = await suite.service.api('/api/health');
        health.push(res.status);
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const lane = await postLane(bytes, sheet.name).finally(() => (done = true));
    await probe;
    delay.disable();
    return { lane, health, maxStallMs: delay.max / 1e6 };
  };

  const cases: Array<[string, () => HostileSheet, RegExp]> = [
    [
      'a 20 KB openpyxl workbook of 2,000 rows with one cell in column XFD',
      xfdWorkbook,
      /Cell XFD2000 on sheet "Lane" is in column 16,384; sheets may use at most 1,000 columns \(the limit\)/,
    ],
    [
      'the 4.9 KB variant: the header and one cell in XFD on row 2,000',
      xfdWorkbookSmall,
      /Cell XFD2000 on sheet "Lane" is in column 16,384; sheets may use at most 1,000 columns \(the limit\)/,
    ],
    [
      'a 1.1 MB workbook with 450 MiB of tiny shared strings',
      sharedStringsBomb,
      /xl\/sharedStrings\.xml inflates to more than 33,554,432 bytes \(the limit\)/,
    ],
    ['a 7.9 MB CSV with a million columns', millionColumnCsv, /Row 1 has more than 1,000 columns \(the limit\)/],
  ];

  for (const [title, make, message] of cases) {
    it(`${title}: 400 naming the limit, health answered throughout, service alive`, async () => {
      const sheet = make();
      const { lane, health, maxStallMs } = await sendWhileProbing(sheet);
      expect(lane.status).toBe(400);
      expect(lane.body).toMatchObject({ code: 'INVALID_ANNOTATION', status: 400 });
      expect(lane.body.error).toMatch(message);
      expect(lane.body.rows).toEqual([expect.objectContaining({ message: expect.stringMatching(message) })]);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((s) => s === 200)).toBe(true);
      expect(maxStallMs).toBeLessThan(STALL_BOUND_MS);
      expect((await suite.service.api('/api/health')).status).toBe(200);
    }, 120_000);
  }

  it('checks a careless 400-row lane (barcodes one base apart) in the thread: 409 with health answered throughout', async () => {
    // The rules compare every pair of barcodes; on the event loop this sheet stalled the service
    // for seconds (2,000 such rows: 24 s).
    const lines = ['Sample Name,Barcode,Organism,Category'];
    for (let i = 0; i < 400; i++) {
      let code = '';
      for (let k = 0, n = i; k < 10; k++, n = Math.floor(n / 4)) code += 'ACGT'[n % 4];
      lines.push(`s${i},${code},Homo sapiens,Total RNA`);
    }
    const path = join(dir.path, 'careless.csv');
    writeFileSync(path, lines.join('\n'));
    const { lane, health, maxStallMs } = await sendWhileProbing({ name: 'careless.csv', path, seen: '' });
    expect([lane.status, lane.body.code]).toEqual([409, 'ANNOTATION_WARNINGS']);
    expect(health.every((s) => s === 200)).toBe(true);
    expect(maxStallMs).toBeLessThan(STALL_BOUND_MS);
  }, 120_000);

  it('still reads a good sheet afterwards, in the same parsing thread', async () => {
    const csv = 'Sample Name,Barcode,Organism,Category\ns1,ACGTACGT,Homo sapiens,Total RNA\n';
    const lane = await postLane(new Blob([csv]), 'good.csv');
    expect(lane.status).toBe(202);
    expect(lane.body).toMatchObject({ name: 'hostile lane', status: 'demultiplexing' });
  });
});
