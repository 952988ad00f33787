/**
 * The Lane screen's barcode check, where the sheet's design does not say where the barcodes
 * are, counts where the upload will read them: both choose the placement from the reads with
 * the same code (src/shared/demux/placement-detect.ts). Before, the check warned that 98.5% of
 * an inline lane would be undetermined (barcodes 3 bases in, after UMI bases, the sheet giving
 * bare barcodes) while the upload found them there and demultiplexed 99% of the lane. Each case
 * is checked against the real `laneway demux` on the same lane: the same placement, the same
 * counts, and a refusal where the engine refuses.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  runBarcodeCheck,
  type BarcodeCheck,
  type CheckFiles,
} from '../../../src/renderer/src/features/annotation/barcode-check';
import { planFromRows } from '../../../src/service/tools/demux/plan';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { reverseComplement } from '../../../src/shared/annotation/barcodes';
import { runCliToEnd } from '../../helpers/cli';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { lanewayDemux } from '../../integration/demux/ultraplex-cases';

const fileOf = (path: string) => new File([readFileSync(path)], basename(path));
const filesOf = (read1: string): CheckFiles => ({ fastq: fileOf(read1), read2: null, index1: null, index2: null });

async function planOf(sheet: string) {
  const { rows, headers } = await readSheet(sheet, basename(sheet));
  const { plan, report } = planFromRows(rows, { mismatches: [1], headers });
  expect(report.errors).toEqual([]);
  return plan!;
}

function writeSheet(path: string, rows: Array<[string, string]>): string {
  writeFileSync(
    path,
    `Sample Name,Barcode,Organism,Category\n${rows.map(([n, b]) => `${n},${b},Mus musculus,RNA`).join('\n')}\n`,
  );
  return path;
}

const countsOf = (check: { samples: Array<{ sample: string; reads: number }>; readsScanned: number }) => {
  const counts: Record<string, number> = Object.fromEntries(check.samples.map((s) => [s.sample, s.reads]));
  counts.Undetermined = check.readsScanned - check.samples.reduce((n, s) => n + s.reads, 0);
  return counts;
};

/**
 * The check of the lane `read1` with the sheet `rows`, beside laneway demux on the same lane: both
 * must choose `id` (in words, `description`) and count the same reads per sample.
 */
async function sameAsEngine(
  read1: string,
  rows: Array<[string, string]>,
  id: string,
  description: string,
): Promise<BarcodeCheck> {
  const where = dirname(read1);
  const sheet = writeSheet(join(where, 'sheet.csv'), rows);
  const plan = await planOf(sheet);
  const check = await runBarcodeCheck(filesOf(read1), plan.design, plan.mismatches, 1);
  const { run, report, counts } = await lanewayDemux(
    { sheet, read1 } as Parameters<typeof lanewayDemux>[0],
    join(where, 'out'),
    ['--mismatches', '1'],
  );
  expect(run.code, run.stderr).toBe(0);
  expect(report.detection.chosen.id).toBe(id);
  expect(check.detected?.description).toBe(description);
  expect(countsOf(check)).toEqual(counts);
  return check;
}

describe('the barcode check chooses the placement as the upload does', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('inline barcodes 3 bases in, the sheet giving bare barcodes: counted there, as laneway demux counts them', async () => {
    const lane = generateLane({
      dir: mkdtempSync(join(dir.path, 'inline-')),
      reads: 6000,
      samples: 5,
      kind: 'inline',
      seed: 71,
    });
    const check = await sameAsEngine(
      lane.read1,
      lane.barcodes.map((b) => [b.name, b.barcode]),
      "inline:5'+3:r1",
      "inline at the 5' end of read 1, after 3 bases",
    );
    expect(check.location).toBe('inline');
    expect(check.undeterminedFraction).toBeLessThan(0.05);
  });

  it("dual header indexes with the sheet's i5 the other way round: read as the engine reads them", async () => {
    const lane = generateLane({
      dir: mkdtempSync(join(dir.path, 'dual-')),
      reads: 5000,
      samples: 4,
      kind: 'dual',
      seed: 72,
    });
    const flipped = lane.barcodes.map((b): [string, string] => {
      const [i7, i5] = b.barcode.split('+') as [string, string];
      return [b.name, `${i7}+${reverseComplement(i5)}`];
    });
    const check = await sameAsEngine(
      lane.read1,
      flipped,
      'header:i5rc',
      'in the read header (i7+i5, i5 reverse-complemented)',
    );
    expect(check.location).toBe('header');
  });

  it('barcodes that are nowhere in the reads: no placement found, the warning stays, and the engine refuses', async () => {
    const lane = generateLane({
      dir: mkdtempSync(join(dir.path, 'none-')),
      reads: 3000,
      samples: 4,
      kind: 'inline',
      seed: 73,
    });
    const sheet = writeSheet(join(dir.path, 'none.csv'), [
      ['A', 'GATTACAG'],
      ['B', 'CCCCGGGG'],
      ['C', 'TTTTAAAA'],
    ]);
    const plan = await planOf(sheet);
    const check = await runBarcodeCheck(filesOf(lane.read1), plan.design, plan.mismatches, 1);
    expect(check.detected).toBeNull();
    expect(check.undeterminedFraction).toBeGreaterThan(0.5);
    const run = await runCliToEnd([
      'demux',
      '--sheet',
      sheet,
      '--input',
      lane.read1,
      '--out',
      join(dir.path, 'none-out'),
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('Most reads match no sample');
  });
});
