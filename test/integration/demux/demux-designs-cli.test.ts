/**
 * Every barcode design through `laneway demux` as a child process, each compared read by read
 * with the generator's truth: mixed-length inline 5' barcodes with UMIs, 3' barcodes,
 * combinatorial 5'+3' pairs, dual indexes in the header and as I1/I2 files (with index hopping),
 * a barcode on read 2, two mismatches, and a sheet with reverse-complemented i5 indexes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import {
  designSheetCsv,
  generateDesignLane,
  type DesignLane,
  type DesignLaneSpec,
} from '../../helpers/design-lane-generator';
import { compareWithTruth } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

interface Report {
  source: string;
  segments: string[];
  layout: string | null;
  segment_mismatches: number[];
  max_mismatches: number[];
  total_reads: number;
  undetermined_reads: number;
  undetermined_fraction: number;
  samples: Array<{ name: string; reads: number; one_mismatch: number; two_mismatches: number; files: string[] }>;
  undetermined_files: string[];
  top_unknown: Array<{ barcode: string; count: number; nearest: string | null; distance: number | null }>;
  hopping: {
    reads: number;
    fraction: number;
    top: Array<{ barcode: string; count: number; samples: string[] }>;
  } | null;
  diagnosis: { cause: string; fraction: number; message: string } | null;
  detection: {
    chosen: { id: string; fraction: number };
    runner_up: { id: string; fraction: number } | null;
  } | null;
}

describe('laneway demux: every barcode design to the truth', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  let n = 0;

  const run = async (spec: Omit<DesignLaneSpec, 'dir'>, extra: string[] = []) => {
    const laneDir = join(dir.path, `lane${++n}`);
    mkdirSync(laneDir);
    const lane = generateDesignLane({ ...spec, dir: laneDir });
    const sheet = join(laneDir, 'sheet.csv');
    writeFileSync(sheet, designSheetCsv(lane));
    const out = join(laneDir, 'out');
    const args = ['demux', '--sheet', sheet, '--input', lane.read1, '--out', out, ...extra];
    if (lane.read2) args.push('--input2', lane.read2);
    if (lane.index1) args.push('--index1', lane.index1, '--index2', lane.index2!);
    const r = await runCliToEnd(args);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'demux-report.json'), 'utf8')) as Report;
    return { lane, report, out, stdout: r.stdout };
  };

  const truth = (lane: DesignLane, report: Report, out: string, read = 0) =>
    compareWithTruth(lane.truth, [
      ...report.samples.map((s) => ({ sample: s.name, path: join(out, s.files[read]!) })),
      { sample: 'Undetermined', path: join(out, report.undetermined_files[read]!) },
    ]);

  it("inline 5' barcodes of 6, 7 and 8 bases with UMIs before and after, detected from the sheet", async () => {
    const { lane, report, out, stdout } = await run({ kind: 'mixed5', reads: 6000, samples: 12, seed: 3 });
    expect(report.layout).toBe('NNNXXXXXXXXNN | NNNXXXXXXXNN | NNNXXXXXXNN');
    expect(report.segment_mismatches).toEqual([1]);
    expect(report.max_mismatches[0]).toBeGreaterThanOrEqual(1);
    const cmp = truth(lane, report, out);
    expect(cmp.examples).toEqual([]);
    expect(cmp.disagreements).toBe(0);
    expect(report.samples.reduce((a, s) => a + s.one_mismatch, 0)).toBeGreaterThan(50);
    // The UMI (3 bases before, 2 after) is in the name and barcode + UMI are trimmed.
    const first = readFileSync(join(out, report.samples[0]!.files[0]!), 'latin1').split('\n');
    expect(first[0]).toMatch(/^@gen\.\d+_[ACGT]{5} 1:N:0:1$/);
    const len = 11 + (lane.samples[0]!.cell.length - 11);
    expect(first[1]!.length).toBe(100 - len);
    expect(stdout).toMatch(/mismatches allowed: 1 of at most \d/);
    expect(stdout).toMatch(/undetermined: \d+ of 6000 reads \(\d+\.\d\d%\)/);
  });

  it("3' barcodes at the read's end, trimmed with their UMI", async () => {
    const { lane, report, out } = await run({ kind: 'inline3', reads: 4000, samples: 8, seed: 4 });
    expect(report.segments).toEqual(["3'"]);
    expect(report.layout).toBe('...XXXXXXXNNNN');
    expect(truth(lane, report, out).disagreements).toBe(0);
    const first = readFileSync(join(out, report.samples[0]!.files[0]!), 'latin1').split('\n');
    expect(first[0]).toMatch(/^@gen\.\d+_[ACGT]{4} /);
    expect(first[1]!.length).toBe(100 - 11);
  });

  it("combinatorial 5'+3' pairs (Ultraplex's design); pairs of no sample are undetermined", async () => {
    const { lane, report, out, stdout } = await run({
      kind: 'combinatorial',
      reads: 6000,
      samples: 12,
      seed: 5,
      hoppingFraction: 0.05,
    });
    expect(report.segments).toEqual(["5'", "3'"]);
    expect(report.segment_mismatches).toEqual([1, 1]);
    expect(truth(lane, report, out).disagreements).toBe(0);
    expect(report.hopping!.reads).toBeGreaterThan(0);
    expect(stdout).toMatch(/unexpected 5'\+3' pairs: \d+ reads/);
  });

  it('dual indexes in the read header: mismatches per index and index hopping', async () => {
    const { lane, report, out, stdout } = await run(
      { kind: 'dual-header', reads: 6000, samples: 8, seed: 6, hoppingFraction: 0.03, paired: true },
      ['--mismatches', '1,0'],
    );
    expect(report.source).toBe('header');
    expect(report.segments).toEqual(['i7', 'i5']);
    expect(report.segment_mismatches).toEqual([1, 0]);
    // Mismatches in i5 are not tolerated with 0 allowed: those reads are undetermined.
    const cmp = truth(lane, report, out);
    expect(cmp.disagreements).toBeGreaterThan(0);
    const written = report.samples.reduce((a, s) => a + s.reads, 0);
    expect(written + report.undetermined_reads).toBe(6000);
    expect(report.hopping!.reads).toBeGreaterThan(100);
    expect(report.hopping!.top[0]!.samples).toHaveLength(2);
    expect(stdout).toMatch(/index hopping: \d+ reads/);
    // With one mismatch per index, both reads of every pair match the truth.
    const again = await run(
      { kind: 'dual-header', reads: 6000, samples: 8, seed: 6, hoppingFraction: 0.03, paired: true },
      ['--mismatches', '1'],
    );
    expect(truth(again.lane, again.report, again.out, 0).disagreements).toBe(0);
    expect(truth(again.lane, again.report, again.out, 1).disagreements).toBe(0);
  });

  it('dual indexes from I1/I2 index-read files (BCL Convert --create-fastq-for-index-reads)', async () => {
    const { lane, report, out } = await run({ kind: 'dual-index-reads', reads: 5000, samples: 8, seed: 7, gzip: true });
    expect(report.source).toBe('index-reads');
    expect(truth(lane, report, out).disagreements).toBe(0);
  });

  it('inline barcodes on read 2 of a paired lane', async () => {
    const { lane, report, out } = await run({ kind: 'mixed5', reads: 3000, samples: 6, seed: 8, barcodeRead: 2 }, [
      '--barcode-read',
      '2',
    ]);
    expect(truth(lane, report, out, 0).disagreements).toBe(0);
    expect(truth(lane, report, out, 1).disagreements).toBe(0);
    const r2 = readFileSync(join(out, report.samples[0]!.files[1]!), 'latin1').split('\n');
    expect(r2[1]!.length).toBeLessThan(100);
  });

  it('two mismatches where the barcodes are at least 5 apart', async () => {
    const { lane, report, out } = await run({ kind: 'single-header', reads: 3000, samples: 3, seed: 9 }, [
      '--mismatches',
      '2',
    ]);
    expect(report.segment_mismatches).toEqual([2]);
    expect(report.samples.reduce((a, s) => a + s.two_mismatches, 0)).toBeGreaterThan(10);
    expect(report.max_mismatches[0]).toBe(2);
    expect(truth(lane, report, out).disagreements).toBe(0);
  });

  it('finds i5 indexes written reverse-complemented in the sheet, and reads them so', async () => {
    const { lane, report, out, stdout } = await run({
      kind: 'dual-header',
      reads: 3000,
      samples: 6,
      seed: 10,
      sheetI5ReverseComplemented: true,
    });
    expect(report.detection!.chosen.id).toBe('header:i5rc');
    expect(report.detection!.runner_up!.fraction).toBeLessThan(0.1);
    expect(report.undetermined_fraction).toBeLessThan(0.05);
    expect(truth(lane, report, out).disagreements).toBe(0);
    expect(stdout).toMatch(/barcodes in the read header \(i7\+i5, i5 reverse-complemented\) \(chosen: /);
  });

  it('told the indexes are in the header as the sheet writes them, refuses and names the cause', async () => {
    const laneDir = join(dir.path, `lane${++n}`);
    mkdirSync(laneDir);
    const lane = generateDesignLane({
      kind: 'dual-header',
      reads: 3000,
      samples: 6,
      seed: 10,
      dir: laneDir,
      sheetI5ReverseComplemented: true,
    });
    const sheet = join(laneDir, 'sheet.csv');
    writeFileSync(sheet, designSheetCsv(lane));
    const out = join(laneDir, 'out');
    const args = ['demux', '--sheet', sheet, '--input', lane.read1, '--out', out, '--barcodes', 'header'];
    const r = await runCliToEnd(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /The barcodes are in the read header \(i7\+i5, i5 reverse-complemented\), not in the read header \(i7\+i5\)/,
    );
    expect(existsSync(out)).toBe(false);
    // --force goes ahead, and the report explains the undetermined reads.
    const forced = await runCliToEnd([...args, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'demux-report.json'), 'utf8')) as Report;
    expect(report.undetermined_fraction).toBeGreaterThan(0.9);
    expect(report.diagnosis).toMatchObject({ cause: 'i5-reverse-complement' });
    expect(report.top_unknown[0]!.nearest).toMatch(/^S0\d$/);
  });
});
