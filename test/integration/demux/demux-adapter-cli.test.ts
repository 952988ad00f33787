/**
 * 3' barcodes followed by the adapter (iCLIP; Ultraplex's 5'+3' design, Wilkins et al. 2021,
 * Genome Research 31:1220): the 3' barcode is read only when the insert is short, so it sits right
 * before the adapter, not at the read's end. `laneway demux`, left to choose, reads it there and
 * cuts the adapter; its counts equal those of cutadapt (Debian's, default settings, reads without
 * the adapter discarded) cutting the adapter first and `laneway demux` then reading the 3' barcode
 * at the read's end — which is what Ultraplex does (cutadapt's adapter trimming, then the barcodes
 * of reads cut by 3 or more bases; real Ultraplex: demux-ultraplex-*.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { designSheetCsv, generateDesignLane } from '../../helpers/design-lane-generator';
import { tempDir } from '../../helpers/temp';

interface Report {
  assigned_reads: number;
  adapter: string | null;
  samples: Array<{ name: string; reads: number }>;
  detection: { chosen: { id: string }; candidates: Array<{ id: string; assigned: number }> };
}

/** Ultraplex's legacy p3 adapter (its `--adapter p3`; its own test reads carry it). */
const ULTRAPLEX_ADAPTER = 'AGATCGGAAGAGCGGTTCAG';

describe("laneway demux: 3' barcodes right before the adapter", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it("5'+3' pairs with inserts of 5 to 200 bases: cutadapt-then-demux's counts, without cutadapt", async () => {
    const d = dir.path;
    mkdirSync(d, { recursive: true });
    // 2,700 reads as in the case (Ultraplex assigned 810): most inserts are longer than the
    // read and hide the 3' barcode, yet the lane is not refused: only reads that show the adapter count.
    const gen = generateDesignLane({
      kind: 'combinatorial',
      reads: 2700,
      samples: 12,
      seed: 8,
      dir: d,
      adapter: ULTRAPLEX_ADAPTER,
      insert: [5, 200],
    });
    const sheet = join(d, 'sheet.csv');
    writeFileSync(sheet, designSheetCsv(gen));
    const trimmed = join(d, 'trimmed.fastq');
    // A read without the adapter may have its insert run past the read: no 3' barcode to read.
    execFileSync('cutadapt', ['-a', ULTRAPLEX_ADAPTER, '--discard-untrimmed', '-o', trimmed, gen.read1], {
      stdio: 'ignore',
    });
    // Both runs at once: the lane as it is, and the lane cut by cutadapt read at the read's end.
    const [direct, cut] = await Promise.all([
      runCliToEnd(['demux', '--sheet', sheet, '--input', gen.read1, '--out', join(d, 'a')]),
      runCliToEnd([
        'demux',
        '--sheet',
        sheet,
        '--input',
        trimmed,
        '--out',
        join(d, 'b'),
        '--barcodes',
        'inline',
        '--force',
      ]),
    ]);
    expect(direct.code, direct.stderr).toBe(0);
    const a = JSON.parse(readFileSync(join(d, 'a', 'demux-report.json'), 'utf8')) as Report;
    expect(a.detection.chosen.id).toBe("inline:5'+3,3'@adapter:r1");
    expect(a.adapter).toBe('AGATCGGAAGAGC');
    // The old reading (the read's last bases) finds few.
    const atEnd = a.detection.candidates.find((c) => c.id === "inline:5'+3,3'@end:r1")!;
    expect(atEnd.assigned).toBeLessThan(
      a.detection.candidates.find((c) => c.id === a.detection.chosen.id)!.assigned / 5,
    );
    expect(cut.code, cut.stderr).toBe(0);
    const b = JSON.parse(readFileSync(join(d, 'b', 'demux-report.json'), 'utf8')) as Report;
    expect(b.adapter).toBeNull();
    expect(a.assigned_reads).toBeGreaterThan(500);
    expect(a.assigned_reads).toBeLessThan(1350);
    expect(Object.fromEntries(a.samples.map((s) => [s.name, s.reads]))).toEqual(
      Object.fromEntries(b.samples.map((s) => [s.name, s.reads])),
    );
  });
});
