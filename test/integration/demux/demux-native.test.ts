/**
 * The native code (native/demux-scan.c: the index fast paths' scans, native-scan.ts;
 * demux-copy.c: the output's copies, copy-ops.ts) against the JavaScript it stands in for
 * (LANEWAY_DEMUX_NATIVE=0):
 * the same bytes in every output file and the same report, on single-end header lanes (where
 * the scan runs) with what makes it hand records back to JavaScript:
 * undetermined reads, index hopping, odd index fields (an N, a base more or fewer, bcl2fastq's
 * sample number, none), I1/I2 files read in step (their chunks ending elsewhere than R1's, and
 * out of step), CRLF line ends, `+` lines that repeat the read name (as older
 * instruments wrote them; Cock et al. 2010, https://doi.org/10.1093/nar/gkp1137), many small
 * chunks (records cut by a chunk's end), gzip input, both output threads and a read limit; and
 * on inline lanes, whose copies mix literals (UMIs moved into the name, trimmed reads).
 * The golden hashes (demux-golden.test.ts) hold both paths to the engine before them too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import type { DemuxInput } from '../../../src/service/tools/demux/demultiplexer';
import { nativeScanAvailable } from '../../../src/service/tools/demux/native-scan';
import { DIAGNOSIS_SAMPLE } from '../../../src/service/tools/demux/record-handlers';
import { tempDir } from '../../helpers/temp';
import { goldenHashes, goldenLane, type GoldenCase } from './demux-golden-cases';

const base = { samples: 10, readLength: 120, mismatchFraction: 0.05, undeterminedFraction: 0.04 } as const;

/** Index fields as instruments also write them (one read in 25 of each kind). */
const odd: GoldenCase['headers'] = (read, field) => {
  const k = read % 25;
  if (k === 1) return field.replace(/^(.{2})./, '$1N');
  if (k === 2) return `${field}T`;
  if (k === 3) return field.slice(1);
  if (k === 4) return '2';
  if (k === 5) return '';
  return field;
};

const CASES: Array<GoldenCase & { extra?: Partial<DemuxInput>; plusNames?: boolean; scanTakesUndetermined?: boolean }> =
  [
    {
      // Some 4,000 undetermined reads: the first 2,000 are JavaScript's (the diagnosis sample),
      // the scan takes the rest (native-scan.ts) and hands their codes back for the tally.
      name: 'single index, a third undetermined, odd fields, past the diagnosis sample',
      lane: {
        ...base,
        undeterminedFraction: 0.33,
        kind: 'single-index-reads',
        reads: 12_000,
        indexInHeader: true,
        longNames: true,
        seed: 312,
      },
      headers: odd,
      extra: { chunkBytes: 256 * 1024 },
      scanTakesUndetermined: true,
    },
    {
      name: 'single index, odd fields, many small chunks',
      lane: { ...base, kind: 'single-index-reads', reads: 12_000, indexInHeader: true, longNames: true, seed: 301 },
      headers: odd,
      extra: { chunkBytes: 64 * 1024 },
    },
    {
      name: 'dual index, hopping, odd fields, the output thread',
      lane: {
        ...base,
        kind: 'dual-index-reads',
        reads: 12_000,
        hoppingFraction: 0.03,
        indexInHeader: true,
        longNames: true,
        seed: 302,
      },
      headers: odd,
      extra: { outputThread: true, chunkBytes: 256 * 1024 },
    },
    {
      name: 'single index, two mismatches, CRLF',
      lane: { ...base, kind: 'single-header', reads: 5000, seed: 303 },
      mismatches: 2,
      crlf: true,
    },
    {
      name: 'dual index, + lines with the read name, a read limit',
      lane: { ...base, kind: 'dual-header', reads: 6000, seed: 304 },
      plusNames: true,
      extra: { maxReads: 4321, chunkBytes: 100_000 },
    },
    {
      name: 'single index, gzip input and output',
      lane: { ...base, kind: 'single-index-reads', reads: 8000, indexInHeader: true, gzip: true, seed: 305 },
    },
    {
      name: 'dual index from I1/I2 files, hopping, CRLF, many small chunks',
      lane: { ...base, kind: 'dual-index-reads', reads: 9000, hoppingFraction: 0.03, seed: 310 },
      crlf: true,
      extra: { chunkBytes: 48 * 1024 },
    },
    {
      name: 'single index from an I1 file, gzip, the output thread',
      lane: { ...base, kind: 'single-index-reads', reads: 7000, gzip: true, seed: 311 },
      extra: { outputThread: true },
    },
  ];

const INLINE: GoldenCase[] = [
  { name: 'inline 5 prime with UMIs, paired', lane: { ...base, kind: 'mixed5', reads: 5000, paired: true, seed: 308 } },
  { name: 'inline combinatorial, gzip', lane: { ...base, kind: 'combinatorial', reads: 5000, gzip: true, seed: 309 } },
];

/** Runs `f` with the native code turned off (the output thread, started inside, inherits it). */
async function withoutNative<T>(f: () => Promise<T>): Promise<T> {
  const was = process.env.LANEWAY_DEMUX_NATIVE;
  process.env.LANEWAY_DEMUX_NATIVE = '0';
  try {
    return await f();
  } finally {
    if (was === undefined) delete process.env.LANEWAY_DEMUX_NATIVE;
    else process.env.LANEWAY_DEMUX_NATIVE = was;
  }
}

/** Every 7th record's `+` line repeats its name, as FASTQ allows. */
function plusNames(path: string): void {
  const lines = readFileSync(path, 'latin1').split('\n');
  for (let i = 0; i + 3 < lines.length; i += 4) if ((i / 4) % 7 === 3) lines[i + 2] = `+${lines[i]!.slice(1)}`;
  writeFileSync(path, lines.join('\n'), 'latin1');
}

describe('the native header scan writes what the JavaScript path writes', () => {
  const dir = tempDir('laneway-native-');
  afterAll(() => dir.remove());

  it('is built in this checkout (npm ci builds it; LANEWAY_DEMUX_NATIVE=0 turns it off)', () => {
    const hint = 'not built, or older than its sources in native/: run `node native/build.mjs` (npm ci does)';
    expect(nativeScanAvailable(), hint).toBe(process.env.LANEWAY_DEMUX_NATIVE !== '0');
  });

  it.each(CASES)('$name', async (c) => {
    const laneDir = join(dir.path, c.name.replace(/\W+/g, '-'));
    const lane = goldenLane(c, laneDir);
    if (c.plusNames) plusNames(lane.read1);
    // The gzip case: the lane really is gzip (the reader's other refill path).
    if (c.lane.gzip) expect(gunzipSync(readFileSync(lane.read1)).length).toBeGreaterThan(0);
    const counters = { nativeReads: 0 };
    const native = await goldenHashes(c, lane, join(laneDir, 'native'), { ...c.extra, counters });
    const taken = counters.nativeReads;
    const js = await withoutNative(() => goldenHashes(c, lane, join(laneDir, 'js'), { ...c.extra, counters }));
    expect(counters.nativeReads).toBe(taken);
    expect(native).toEqual(js);
    // The scan alone off (engine 'js'), the copies still native: the same bytes.
    expect(await goldenHashes(c, lane, join(laneDir, 'scan-off'), { ...c.extra, engine: 'js' })).toEqual(js);
    expect(Object.keys(native).length).toBeGreaterThan(3);
    if (nativeScanAvailable()) {
      // Most reads went through the native scan, and JavaScript took the rest.
      expect(taken).toBeGreaterThan((c.extra?.maxReads ?? c.lane.reads) * 0.5);
      expect(taken).toBeLessThan(c.extra?.maxReads ?? c.lane.reads);
      // All but the diagnosis sample and the records cut by a chunk's end.
      if (c.scanTakesUndetermined) expect(taken).toBeGreaterThan(c.lane.reads - DIAGNOSIS_SAMPLE - 100);
    } else expect(taken).toBe(0);
  });

  it.each(INLINE)('$name, on both output threads', async (c) => {
    const laneDir = join(dir.path, c.name.replace(/\W+/g, '-'));
    const lane = goldenLane(c, laneDir);
    for (const outputThread of [false, true]) {
      const native = await goldenHashes(c, lane, join(laneDir, `native-${outputThread}`), { outputThread });
      const js = await withoutNative(() =>
        goldenHashes(c, lane, join(laneDir, `js-${outputThread}`), { outputThread }),
      );
      expect(native, `output thread ${outputThread}`).toEqual(js);
    }
  });

  it('leaves paired lanes to JavaScript', async () => {
    const c: GoldenCase = {
      name: 'paired',
      lane: { ...base, kind: 'dual-header', reads: 2000, paired: true, seed: 306 },
    };
    const lane = goldenLane(c, join(dir.path, 'paired'));
    const counters = { nativeReads: 0 };
    await goldenHashes(c, lane, join(dir.path, 'paired', 'out'), { counters });
    const files: GoldenCase = {
      name: 'files',
      lane: { ...base, kind: 'dual-index-reads', reads: 2000, paired: true, seed: 307 },
    };
    await goldenHashes(files, goldenLane(files, join(dir.path, 'files')), join(dir.path, 'files', 'out'), {
      counters,
    });
    expect(counters.nativeReads).toBe(0);
  });

  it('finds I1 out of step with R1 as JavaScript does (the names are compared every 1,024 reads)', async () => {
    const c: GoldenCase = {
      name: 'out of step',
      lane: { ...base, kind: 'single-index-reads', reads: 3000, seed: 312 },
    };
    const lane = goldenLane(c, join(dir.path, 'step'));
    // I1 loses its read 1500: from there its names (and bases) belong to the next read.
    const lines = readFileSync(lane.index1!, 'latin1').split('\n');
    lines.splice(1499 * 4, 4);
    writeFileSync(lane.index1!, lines.join('\n'), 'latin1');
    const failure = async (out: string) =>
      goldenHashes(c, lane, join(dir.path, 'step', out)).then(
        () => 'no error',
        (err: Error) => err.message,
      );
    const native = await failure('native');
    expect(native).toMatch(/Read 2049 has different names in .* the files are out of step/);
    expect(await withoutNative(() => failure('js'))).toBe(native);
  });
});
