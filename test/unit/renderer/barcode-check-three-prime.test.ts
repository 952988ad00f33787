/**
 * The Lane screen's barcode check (run in the browser before uploading) counts the reads of a
 * 5'+3' lane (Ultraplex's design, iCLIP) per sample exactly as `laneway demux` assigns them: the
 * 3' barcode right before the adapter, only in reads that show it (single-end), or at read 2's
 * start (paired). Lanes from test/helpers/ultraplex-lane-generator.ts, the cases of
 * test/integration/demux/ultraplex-cases.ts (whose recorded counts are real Ultraplex's).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkReads,
  runBarcodeCheck,
  type CheckFiles,
} from '../../../src/renderer/src/features/annotation/barcode-check';
import { planFromRows } from '../../../src/service/tools/demux/plan';
import { readSheet } from '../../../src/service/sheets/sheet-reader';
import { parseMismatches } from '../../../src/service/tools/demux/plan';
import { tempDir } from '../../helpers/temp';
import { generateUltraplexLane } from '../../helpers/ultraplex-lane-generator';
import { lanewayDemux, ULTRAPLEX_CASES } from '../../integration/demux/ultraplex-cases';

const fileOf = (path: string) => new File([readFileSync(path)], basename(path));

async function designOf(sheet: string, mismatches: number[]) {
  const { rows, headers } = await readSheet(sheet, basename(sheet));
  const { plan, report } = planFromRows(rows, { mismatches, headers });
  expect(report.errors).toEqual([]);
  return plan!;
}

/** The check's counts as the demux report names them (samples, and the rest as Undetermined). */
function countsOf(check: { samples: Array<{ sample: string; reads: number }>; readsScanned: number }) {
  const counts: Record<string, number> = Object.fromEntries(check.samples.map((s) => [s.sample, s.reads]));
  counts.Undetermined = check.readsScanned - check.samples.reduce((n, s) => n + s.reads, 0);
  return counts;
}

describe("the Lane screen's barcode check on 5'+3' lanes counts what the upload assigns", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  for (const [i, c] of ULTRAPLEX_CASES.entries()) {
    it(c.title, async () => {
      const laneDir = join(dir.path, `case${i}`);
      mkdirSync(laneDir);
      const lane = generateUltraplexLane({ ...c.lane, dir: laneDir });
      const mismatches = parseMismatches(c.lanewayArgs[c.lanewayArgs.indexOf('--mismatches') + 1]!)!;
      const plan = await designOf(lane.sheet, mismatches);
      const files: CheckFiles = {
        fastq: fileOf(lane.read1),
        read2: lane.read2 ? fileOf(lane.read2) : null,
        index1: null,
        index2: null,
      };
      expect(c.lane.reads).toBeLessThan(20_000); // the check reads the whole lane

      // The adapter the case names (as `laneway demux --adapter` and Ultraplex -a were given it):
      // Ultraplex's recorded counts, which laneway demux equals (demux-ultraplex-recorded.test.ts).
      const adapterAt = c.lanewayArgs.indexOf('--adapter');
      if (adapterAt >= 0 || c.lane.paired) {
        const named = await runBarcodeCheck(files, plan.design, plan.mismatches, 1, undefined, {
          adapter: adapterAt >= 0 ? c.lanewayArgs[adapterAt + 1]! : undefined,
        });
        expect(countsOf(named)).toEqual(c.recorded);
      }

      // The Lane screen names no adapter: the check finds one in the reads, as the upload does.
      const check = await runBarcodeCheck(files, plan.design, plan.mismatches, 1);
      const {
        run,
        report,
        counts: engine,
      } = await lanewayDemux(lane, join(laneDir, 'laneway'), ['--mismatches', mismatches.join(',')]);
      // The upload does not refuse the lane, and the check does not warn "mostly undetermined".
      expect(run.code, run.stderr).toBe(0);
      expect(report.detection.refusal).toBeNull();
      expect(check.undeterminedFraction).toBeLessThanOrEqual(0.5);
      expect(countsOf(check)).toEqual(engine);
      // Read where the engine read them, with the same reads showing the adapter.
      if (c.lane.paired) {
        expect(report.detection.chosen.id).toMatch(/3'@start:r2$/);
        expect(check.threePrime).toEqual({ adapter: null, threeOnRead2: true });
        expect(check.readable).toBe(check.readsScanned);
      } else {
        expect(report.detection.chosen.id).toMatch(/3'@adapter:r1$/);
        expect(check.threePrime?.adapter).toMatch(/^AGATCGGAAGAGC/);
        expect(check.readable).toBeLessThan(check.readsScanned / 2);
        // On the reads the upload sampled to choose, the same reads show the adapter.
        const sampled = await runBarcodeCheck(files, plan.design, plan.mismatches, 1, report.detection.sampled_reads);
        expect(sampled.readable).toBe(report.detection.chosen.readable);
        expect(sampled.assigned).toBe(report.detection.chosen.assigned);
      }
    });
  }

  it("reads a 3' barcode at the end of a read without an adapter, as before (and 5' designs are unchanged)", async () => {
    const sheet = join(dir.path, 'plain.csv');
    writeFileSync(
      sheet,
      'Sample Name,Barcode,Organism,Category\nA,...ACGT,Homo sapiens,RNA\nB,...TTGA,Homo sapiens,RNA\n',
    );
    const plan = await designOf(sheet, [0]);
    const reads = ['GGGGGGGGACGT', 'CCCCCCCCTTGA', 'CCCCCCCCTTGC'].map((seq) => ({ seq }));
    const check = checkReads(reads, plan.design, plan.mismatches, 'inline');
    expect(check.threePrime).toEqual({ adapter: null, threeOnRead2: false });
    expect(check.samples.map((s) => s.reads)).toEqual([1, 1]);
    expect(check.readable).toBe(3);

    const five = join(dir.path, 'five.csv');
    writeFileSync(five, 'Sample Name,Barcode,Organism,Category\nA,ACGT,Homo sapiens,RNA\nB,TTGA,Homo sapiens,RNA\n');
    const plan5 = await designOf(five, [0]);
    const check5 = checkReads(
      ['ACGTAGATCGGAAGAGCACACGTCT', 'TTGACCCC', 'GGGG'].map((seq) => ({ seq })),
      plan5.design,
      plan5.mismatches,
      'inline',
    );
    expect(check5.threePrime).toBeNull();
    expect(check5.samples.map((s) => s.reads)).toEqual([1, 1]);
    expect(check5.undeterminedFraction).toBeCloseTo(1 / 3);
  });
});
