/**
 * `laneway demux` without a layout or a barcode source: where the barcodes are is chosen from the
 * lane's first reads (header index, inline 5', 3' right before the adapter, read 2), the choice
 * and the runner-up are in the report, and a lane where most reads would be undetermined is
 * refused before anything is written, naming the cause. The GBS lane of the issue (96 samples,
 * 9-13 base inline barcodes, an empty header index field) gives axe-demultiplexer's counts.
 */
import { existsSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { THREAD_MIN_BYTES } from '../../../src/service/tools/demux/output-mode';
import { axeCounts } from '../../helpers/axe';
import { runCliToEnd } from '../../helpers/cli';
import { designSheetCsv, generateDesignLane, type DesignLaneSpec } from '../../helpers/design-lane-generator';
import { compareWithTruth } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';

interface Report {
  source: string;
  layout: string | null;
  barcode_read: number | null;
  adapter: string | null;
  undetermined_reads: number;
  undetermined_fraction: number;
  samples: Array<{ name: string; reads: number; files: string[] }>;
  undetermined_files: string[];
  detection: {
    sampled_reads: number;
    chosen: { id: string; description: string; fraction: number };
    runner_up: { id: string; fraction: number } | null;
    candidates: Array<{ id: string; fraction: number }>;
  };
}

/** Illumina TruSeq read 1 adapter (Illumina Adapter Sequences, document 1000000002694). */
const TRUSEQ = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCAC';

describe('laneway demux: where the barcodes are, from the reads', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  let n = 0;

  const lane = (spec: Omit<DesignLaneSpec, 'dir'>) => {
    const laneDir = join(dir.path, `lane${++n}`);
    mkdirSync(laneDir);
    const gen = generateDesignLane({ ...spec, dir: laneDir });
    const sheet = join(laneDir, 'sheet.csv');
    writeFileSync(sheet, designSheetCsv(gen));
    const out = join(laneDir, 'out');
    const args = ['demux', '--sheet', sheet, '--input', gen.read1, '--out', out];
    if (gen.read2) args.push('--input2', gen.read2);
    return { gen, out, args, laneDir };
  };
  const run = async (spec: Omit<DesignLaneSpec, 'dir'>, extra: string[] = []) => {
    const l = lane(spec);
    const r = await runCliToEnd([...l.args, ...extra]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(l.out, 'demux-report.json'), 'utf8')) as Report;
    const cmp = compareWithTruth(l.gen.truth, [
      ...report.samples.map((s) => ({ sample: s.name, path: join(l.out, s.files[0]!) })),
      { sample: 'Undetermined', path: join(l.out, report.undetermined_files[0]!) },
    ]);
    return { ...l, report, cmp, stdout: r.stdout };
  };

  it("GBS: 96 inline barcodes of 9 to 13 bases, header index field empty: inline 5', axe's counts", async () => {
    const { gen, report, cmp, stdout, laneDir } = await run({ kind: 'gbs', reads: 5000, samples: 96, seed: 5 });
    expect(report.detection.chosen.id).toBe("inline:5'+0:r1");
    expect(report.source).toBe('inline');
    expect(report.detection.runner_up!.fraction).toBeLessThan(0.1);
    expect(stdout).toMatch(
      /barcodes inline at the 5' end of read 1 \(chosen: \d+ of the first 1000 reads\); next best/,
    );
    expect(cmp.disagreements).toBe(0);
    const axe = axeCounts(gen.read1, gen.samples, join(laneDir, 'axe'));
    expect(Object.fromEntries(report.samples.map((s) => [s.name, s.reads]))).toEqual(axe.counts);
    expect(report.undetermined_reads).toBe(axe.undetermined);
  });

  it('bare barcodes in the read header: the header', async () => {
    // The generator's header barcodes are 5 apart, with two mismatches in some reads.
    const { report, cmp } = await run({ kind: 'single-header', reads: 3000, samples: 4, seed: 21 }, [
      '--mismatches',
      '2',
    ]);
    expect(report.detection.chosen.id).toBe('header');
    expect(report.source).toBe('header');
    expect(cmp.disagreements).toBe(0);
  });

  it("3' barcodes followed by the adapter: read right before it, adapter cut", async () => {
    const { report, cmp, out } = await run({
      kind: 'inline3',
      reads: 3000,
      samples: 6,
      seed: 22,
      adapter: TRUSEQ,
      insert: [10, 50],
    });
    expect(report.detection.chosen.id).toBe("inline:3'@adapter:r1");
    expect(report.adapter).toBe('AGATCGGAAGAGC');
    // At the read's end, as before, almost nothing matches.
    expect(report.detection.candidates.find((c) => c.id === "inline:3'@end:r1")!.fraction).toBeLessThan(0.1);
    expect(cmp.disagreements).toBe(0);
    expect(readFileSync(join(out, report.samples[0]!.files[0]!), 'latin1')).not.toContain('AGATCGGAAGAGC');
  });

  it("inline 5' barcodes after another UMI length than the sheet's layout says: the offset the reads carry", async () => {
    // The reads: 3 UMI bases, the barcode, 2 UMI bases. The sheet says 1 UMI base, then the barcode
    // (a kit's layout typed from another protocol): the same span, the barcode 2 bases early.
    const l = lane({ kind: 'mixed5', reads: 3000, samples: 6, seed: 26 });
    const sheet = join(l.laneDir, 'sheet.csv');
    writeFileSync(sheet, readFileSync(sheet, 'utf8').replace(/,NNN([ACGT]+)NN,/g, ',N$1NNNN,'));
    expect(readFileSync(sheet, 'utf8')).toMatch(/,N[ACGT]{6,8}NNNN,/);
    const r = await runCliToEnd(l.args);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(l.out, 'demux-report.json'), 'utf8')) as Report;
    expect(report.detection.chosen.id).toBe("inline:5'+3:r1");
    expect(report.detection.chosen.description).toMatch(/barcode after 3 bases/);
    // The sheet's own offset (1) matches almost nothing.
    expect(report.detection.candidates.find((c) => c.id === "inline:5'+1:r1")!.fraction).toBeLessThan(0.1);
    const cmp = compareWithTruth(l.gen.truth, [
      ...report.samples.map((x) => ({ sample: x.name, path: join(l.out, x.files[0]!) })),
      { sample: 'Undetermined', path: join(l.out, report.undetermined_files[0]!) },
    ]);
    expect(cmp.disagreements).toBe(0);
  });

  it('barcodes on read 2 of a paired lane: read 2', async () => {
    const { report, cmp } = await run({ kind: 'gbs', reads: 3000, samples: 8, seed: 23, barcodeRead: 2 });
    expect(report.detection.chosen.id).toBe("inline:5'+0:r2");
    expect(report.barcode_read).toBe(2);
    expect(cmp.disagreements).toBe(0);
  });

  it('told the barcodes are in the header, refuses the GBS lane naming the cause', async () => {
    const l = lane({ kind: 'gbs', reads: 3000, samples: 12, seed: 24 });
    const r = await runCliToEnd([...l.args, '--barcodes', 'header']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/The barcodes are inline at the 5' end of read 1, not in the read header/);
    expect(existsSync(l.out)).toBe(false);
  });

  it('refuses a lane whose sheet matches no placement, before writing anything', async () => {
    const l = lane({ kind: 'gbs', reads: 3000, samples: 12, seed: 25 });
    // Another lane's sheet: same design, other barcodes.
    const other = lane({ kind: 'gbs', reads: 10, samples: 12, seed: 99 });
    const args = l.args.map((a) => (a.endsWith('sheet.csv') ? join(other.laneDir, 'sheet.csv') : a));
    const r = await runCliToEnd(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Most reads match no sample wherever the barcodes are looked for/);
    expect(existsSync(l.out)).toBe(false);
  });

  it('ends at once when it refuses a lane large enough to start the output thread beforehand', async () => {
    const l = lane({ kind: 'gbs', reads: 5000, samples: 12, seed: 26 });
    // Past the sampled reads the file is a sparse run of zeros up to the thread's threshold: a
    // refused lane never reads it, and laneway demux starts the thread from the file's size.
    truncateSync(l.gen.read1, THREAD_MIN_BYTES + 1);
    const other = lane({ kind: 'gbs', reads: 10, samples: 12, seed: 98 });
    const args = l.args.map((a) => (a.endsWith('sheet.csv') ? join(other.laneDir, 'sheet.csv') : a));
    // Before the fix the unused thread kept the process alive: this waited on an exit that never came.
    const r = await runCliToEnd(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Most reads match no sample wherever the barcodes are looked for/);
    expect(existsSync(l.out)).toBe(false);
  });
});
