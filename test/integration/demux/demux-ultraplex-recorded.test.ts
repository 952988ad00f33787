/**
 * `laneway demux` on lanes of Ultraplex's 5'+3' design gives the per-sample counts real Ultraplex
 * gave on the same reads (recorded in ultraplex-cases.ts with the tool's commit, options and
 * date; the generator is seeded, so the reads are the same ones). The 3' barcode is read right
 * before the adapter, and only in reads that show 3 or more adapter bases, as Ultraplex does; on a
 * paired lane, at read 2's start (reverse-complemented), as Ultraplex -i2 does.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { prng } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { generateUltraplexLane } from '../../helpers/ultraplex-lane-generator';
import { lanewayDemux, lanewayOnCase, ULTRAPLEX_CASES } from './ultraplex-cases';
import { comparable, lanewayRecords, recordsSha256 } from './ultraplex-records';

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
const revComp = (s: string) =>
  [...s]
    .reverse()
    .map((c) => COMPLEMENT[c] ?? 'N')
    .join('');

describe("laneway demux against Ultraplex's recorded counts", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  for (const [i, c] of ULTRAPLEX_CASES.entries()) {
    it(c.title, async () => {
      const { run, report, counts, lane, out } = await lanewayOnCase(join(dir.path, `case${i}`), c);
      // Most reads have inserts longer than the read (no 3' barcode): the CLI warns, exits 0.
      expect(run.code, run.stderr).toBe(0);
      // The 5' barcode after its UMI bases, the 3' barcode right before the adapter (single-end),
      // or at read 2's start (paired).
      expect(report.detection.chosen.id).toMatch(
        c.lane.paired ? /^inline:5'\+\d:r1,3'@start:r2$/ : /^inline:5'\+\d,3'@adapter:r1$/,
      );
      expect(counts).toEqual(c.recorded);
      // Whole records (id, UMI, sequence, qualities) as Ultraplex wrote them, where it and Laneway
      // cut alike: every read of a single-end lane; both mates of short-fragment pairs.
      const ours = comparable(lanewayRecords(out), c, lane);
      expect(ours.length).toBe(c.records.count);
      expect(recordsSha256(ours)).toBe(c.records.sha256);
      if (c.lane.paired) {
        // And what they hold is the generator's insert: read 1 as is, read 2 reverse-complemented.
        for (const r of ours) {
          const insert = lane.inserts.get(r.id)!;
          expect(r.seq, r.id).toBe(r.mate === 1 ? insert : revComp(insert));
        }
        // The other pairs' reads lose only their barcode at the start: an adapter that read 1
        // seems to show by chance at a long insert's end (read 2 does not confirm it) cuts nothing.
        const short = new Set(ours.map((r) => `${r.mate} ${r.id}`));
        const rest = lanewayRecords(out).filter((r) => !short.has(`${r.mate} ${r.id}`));
        expect(rest.length).toBeGreaterThan(0);
        for (const r of rest) {
          const start = r.mate === 1 ? c.lane.fiveLayout.length : c.lane.threeLayout.length;
          expect(r.seq.length, r.id).toBe((c.lane.readLength ?? 100) - start);
        }
      }
    });
  }

  it("a paired lane whose read 2 does not carry the 3' barcodes: still read before read 1's adapter", async () => {
    // The iCLIP-like single-end case, with a read 2 of random bases under the same names: the
    // read-2 placement must not win, and the counts stay Ultraplex's single-end ones.
    const c = ULTRAPLEX_CASES[1]!;
    const d = join(dir.path, 'random-read2');
    const laneDir = join(dir.path, 'random-read2-lane');
    mkdirSync(laneDir);
    const lane = generateUltraplexLane({ ...c.lane, dir: laneDir });
    const rand = prng(47);
    const names = gunzipSync(readFileSync(lane.read1))
      .toString('latin1')
      .split('\n')
      .filter((line, i) => i % 4 === 0 && line.startsWith('@'));
    const read2 = join(dir.path, 'random_R2.fastq.gz');
    const seq = () => Array.from({ length: 100 }, () => 'ACGT'[Math.floor(rand() * 4)]).join('');
    writeFileSync(
      read2,
      gzipSync(names.map((n) => `${n.split(' ')[0]} 2:N:0:1\n${seq()}\n+\n${'F'.repeat(100)}\n`).join('')),
    );
    const { run, report, counts } = await lanewayDemux({ ...lane, read2 }, d, c.lanewayArgs);
    expect(run.code, run.stderr).toBe(0);
    expect(report.detection.chosen.id).toMatch(/^inline:5'\+\d,3'@adapter:r1$/);
    expect(counts).toEqual(c.recorded);
  });
});
