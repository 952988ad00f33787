/**
 * `laneway demux` on lanes of Ultraplex's 5'+3' design gives the per-sample counts real Ultraplex
 * gave on the same reads (recorded in ultraplex-cases.ts with the tool's commit, options and
 * date; the generator is seeded, so the reads are the same ones). The 3' barcode is read right
 * before the adapter, and only in reads that show 3 or more adapter bases, as Ultraplex does; on a
 * paired lane, at read 2's start (reverse-complemented), as Ultraplex -i2 does.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { lanewayOnCase, ULTRAPLEX_CASES } from './ultraplex-cases';

describe("laneway demux against Ultraplex's recorded counts", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  for (const [i, c] of ULTRAPLEX_CASES.entries()) {
    it(c.title, async () => {
      const { run, report, counts } = await lanewayOnCase(join(dir.path, `case${i}`), c);
      // Most reads have inserts longer than the read (no 3' barcode): the CLI warns, exits 0.
      expect(run.code, run.stderr).toBe(0);
      // The 5' barcode after its UMI bases, the 3' barcode right before the adapter (single-end),
      // or at read 2's start (paired).
      expect(report.detection.chosen.id).toMatch(
        c.lane.paired ? /^inline:5'\+\d:r1,3'@start:r2$/ : /^inline:5'\+\d,3'@adapter:r1$/,
      );
      expect(counts).toEqual(c.recorded);
    });
  }
});
