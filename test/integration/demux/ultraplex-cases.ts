/**
 * Lanes of Ultraplex's 5'+3' design (test/helpers/ultraplex-lane-generator.ts) with the per-sample
 * counts real Ultraplex gave on them, and how each was run: the options on both sides, and the
 * counts as Ultraplex wrote them (reads per output file, every file that is not a sample's
 * counted as Undetermined). The live comparison (demux-ultraplex-live.test.ts) reruns Ultraplex
 * when it is installed; docs/instruments.md ("Ultraplex") says how it was built.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runCliToEnd } from '../../helpers/cli';
import {
  generateUltraplexLane,
  type UltraplexLane,
  type UltraplexLaneSpec,
} from '../../helpers/ultraplex-lane-generator';

export const ULTRAPLEX_PROVENANCE = {
  tool: 'Ultraplex 1.2.10 (github.com/ulelab/ultraplex at f9f163f8bcf7704b9c0acdf474e1980bffc76fed, 1.2.10 + 3 commits)',
  build:
    'Debian Python 3.11 venv (--system-site-packages: python3-dnaio 0.10, python3-xopen 1.7, python3-multiprocess), C regenerated with cython3 0.29.32',
  recorded: '2026-11-26',
  records:
    "each case's records sha256 computed (ultraplex-records.ts) from that Ultraplex's own output on the case's lane, run with the case's options, 2026-11-26",
} as const;

export interface UltraplexCase {
  title: string;
  lane: Omit<UltraplexLaneSpec, 'dir'>;
  /** Ultraplex's options after `ultraplex -i READS [-i2 READS2] -b BARCODES -d OUT -o u`. */
  ultraplexArgs: string[];
  /** `laneway demux` options after `--sheet --input [--input2] --out`. */
  lanewayArgs: string[];
  /** Reads per sample in Ultraplex's output, and the rest as Undetermined. */
  recorded: Record<string, number>;
  /**
   * Ultraplex's sample records that Laneway must write alike (ultraplex-records.ts, `comparable`:
   * all of a single-end lane; both mates of the pairs whose read 1 shows the adapter): how many,
   * and the sha256 of them as `recordsSha256` forms them (sample, mate, id, UMI, sequence, qualities).
   */
  records: { count: number; sha256: string };
}

/** The legacy Illumina p3 adapter iCLIP libraries end in (Ultraplex's `-a` for them). */
export const P3 = 'AGATCGGAAGAGCGGTTCAG';

/** Ultraplex's test design: NNXXXNN 5' barcodes, each with its own three NNXX 3' barcodes. */
const TEST_DESIGN = { fiveLayout: 'NNXXXNN', threeLayout: 'NNXX', fivePrime: 3, threePerFive: 3 } as const;

/** The iCLIP-like design: 4 NNNXXXXXNN 5' barcodes × the same 4 XXXXXNNN 3' ones, the p3 adapter. */
export const ICLIP_DESIGN = {
  fiveLayout: 'NNNXXXXXNN',
  threeLayout: 'XXXXXNNN',
  fivePrime: 4,
  threePerFive: 4,
  sameThreeForEveryFive: true,
  adapter: P3,
} as const;

/** One mismatch at each end and the p3 adapter: Ultraplex's options, then Laneway's. */
export const ICLIP_ULTRAPLEX_ARGS = ['-m5', '1', '-m3', '1', '-a', P3];
export const ICLIP_LANEWAY_ARGS = ['--mismatches', '1,1', '--adapter', P3];

export const ULTRAPLEX_CASES: UltraplexCase[] = [
  {
    title: "the test design: NNXXXNN 5' barcodes, each with its own three NNXX 3' barcodes, defaults",
    lane: {
      seed: 19,
      reads: 2700,
      ...TEST_DESIGN,
    },
    // Ultraplex's defaults (no mismatch at either end, its p7 adapter, Q30 trimming), but every
    // read written (-l 0): Laneway keeps reads of any length.
    ultraplexArgs: ['-t', '1', '-l', '0'],
    lanewayArgs: ['--mismatches', '0,0'],
    recorded: { S01: 81, S02: 81, S03: 74, S04: 91, S05: 70, S06: 77, S07: 69, S08: 77, S09: 74, Undetermined: 2006 },
    records: { count: 694, sha256: '4126408215c7209c03efcb44078f0b743bbc8eb8ead19dad04f12409ed06d620' },
  },
  {
    title: "iCLIP-like: NNNXXXXXNN 5' and XXXXXNNN 3' barcodes, one mismatch at each end, the legacy p3 adapter",
    lane: {
      seed: 23,
      reads: 6000,
      ...ICLIP_DESIGN,
    },
    ultraplexArgs: ['-t', '1', '-l', '0', ...ICLIP_ULTRAPLEX_ARGS],
    lanewayArgs: ICLIP_LANEWAY_ARGS,
    recorded: {
      S01: 106,
      S02: 110,
      S03: 103,
      S04: 82,
      S05: 97,
      S06: 88,
      S07: 107,
      S08: 93,
      S09: 100,
      S10: 79,
      S11: 98,
      S12: 71,
      S13: 89,
      S14: 95,
      S15: 93,
      S16: 102,
      Undetermined: 4487,
    },
    records: { count: 1513, sha256: '09a03018d9e83e9074c5efc91957b63d4f6b3dc2267d52d4fd69d8495abf1218' },
  },
  {
    title: 'sequencing errors in the adapter: substitutions, insertions and deletions in 30% of the reads',
    lane: {
      seed: 31,
      reads: 6000,
      ...ICLIP_DESIGN,
      adapterErrorFraction: 0.3,
    },
    ultraplexArgs: ['-t', '1', '-l', '0', ...ICLIP_ULTRAPLEX_ARGS],
    lanewayArgs: ICLIP_LANEWAY_ARGS,
    recorded: {
      S01: 89,
      S02: 96,
      S03: 86,
      S04: 85,
      S05: 103,
      S06: 78,
      S07: 89,
      S08: 85,
      S09: 92,
      S10: 92,
      S11: 87,
      S12: 90,
      S13: 86,
      S14: 83,
      S15: 86,
      S16: 80,
      Undetermined: 4593,
    },
    records: { count: 1407, sha256: 'f00a831f56bd56488db1784d550ccdee793b9584fb9f9c0be8f6a99ce17bdfdf' },
  },
  {
    title: "Ultraplex's own test qualities (from Q45 falling towards Q30), its quality trimming off",
    lane: {
      seed: 37,
      reads: 6000,
      ...ICLIP_DESIGN,
      fallingQualities: true,
    },
    // With its default -q 30, Ultraplex cuts some adapters off with the low-quality tail and
    // leaves 99 of these reads undetermined (docs/instruments.md, "Differences that remain").
    ultraplexArgs: ['-t', '1', '-l', '0', '-q', '0', ...ICLIP_ULTRAPLEX_ARGS],
    lanewayArgs: ICLIP_LANEWAY_ARGS,
    recorded: {
      S01: 86,
      S02: 105,
      S03: 89,
      S04: 92,
      S05: 112,
      S06: 104,
      S07: 84,
      S08: 94,
      S09: 95,
      S10: 86,
      S11: 93,
      S12: 96,
      S13: 83,
      S14: 88,
      S15: 77,
      S16: 102,
      Undetermined: 4514,
    },
    records: { count: 1486, sha256: 'b1130f1278603a08c4649872ca0729dab354cbbca7e3fc57d67198f48dc0dfd8' },
  },
  {
    title:
      "paired, the test design (its generator's read 2): NNXXXNN 5' barcodes with their own NNXX 3' ones, defaults",
    lane: {
      seed: 43,
      reads: 2700,
      ...TEST_DESIGN,
      paired: true,
    },
    // Ultraplex's defaults (its p7 and read-2 adapters, Q30 trimming, no mismatch), -l 0.
    ultraplexArgs: ['-t', '1', '-l', '0'],
    lanewayArgs: ['--mismatches', '0,0'],
    recorded: {
      S01: 248,
      S02: 232,
      S03: 266,
      S04: 264,
      S05: 312,
      S06: 281,
      S07: 253,
      S08: 287,
      S09: 263,
      Undetermined: 294,
    },
    records: { count: 1460, sha256: '14a805bd42686c10ddb0fac13b1b17d027dd39cc9e952fed426b0e4ed5413883' },
  },
  {
    title: "paired (Ultraplex -i2): the 3' barcode at read 2's start, so long inserts are assigned too",
    lane: {
      seed: 41,
      reads: 3000,
      ...ICLIP_DESIGN,
      paired: true,
    },
    // Read pairs per sample in its _Fwd files (the _Rev files hold the same ids); the same with -q 0.
    ultraplexArgs: ['-t', '1', '-l', '0', ...ICLIP_ULTRAPLEX_ARGS],
    lanewayArgs: ICLIP_LANEWAY_ARGS,
    recorded: {
      S01: 180,
      S02: 175,
      S03: 185,
      S04: 177,
      S05: 186,
      S06: 165,
      S07: 179,
      S08: 192,
      S09: 175,
      S10: 162,
      S11: 176,
      S12: 174,
      S13: 177,
      S14: 194,
      S15: 184,
      S16: 152,
      Undetermined: 167,
    },
    records: { count: 1530, sha256: '801a3c880f40fa58e315f72d3a66bf9f227a666b04cbc069fbf9b50b75c10616' },
  },
];

/** Reads per sample in an Ultraplex output folder (named samples; all else is Undetermined). */
export function ultraplexCounts(dir: string, prefix = 'u'): Record<string, number> {
  return ultraplexReadIds(dir, prefix, (ids) => ids.length) as Record<string, number>;
}

/**
 * Read ids per sample in an Ultraplex output folder (the name up to Ultraplex's `_` and `rbc:`);
 * of a paired run, its read-1 files (`_Fwd`; `read` 2: its `_Rev` files).
 */
export function ultraplexReadIds<T = string[]>(
  dir: string,
  prefix = 'u',
  map?: (ids: string[]) => T,
  read: 1 | 2 = 1,
): Record<string, T> {
  const ids: Record<string, string[]> = {};
  const head = `ultraplex_${prefix}_`;
  const other = read === 1 ? '_Rev.fastq.gz' : '_Fwd.fastq.gz';
  for (const f of readdirSync(dir).filter((n) => n.startsWith(head) && n.endsWith('.fastq.gz') && !n.endsWith(other))) {
    const name = f.slice(head.length, -'.fastq.gz'.length).replace(/_(Fwd|Rev)$/, '');
    const sample = /^S\d+$/.test(name) ? name : 'Undetermined';
    (ids[sample] ??= []).push(...fastqGzReadIds(join(dir, f)));
  }
  return Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, map ? map(v) : (v.sort() as T)]));
}

/** The read ids of a gzipped FASTQ file, each up to the first space or `_` (Ultraplex's `rbc:`, a UMI). */
export function fastqGzReadIds(path: string): string[] {
  const lines = gunzipSync(readFileSync(path)).toString('latin1').split('\n');
  const ids: string[] = [];
  for (let i = 0; i + 1 < lines.length; i += 4) ids.push(lines[i]!.slice(1).split(/[\s_]/)[0]!);
  return ids;
}

/** What `laneway demux` writes in demux-report.json that these tests read. */
export interface DemuxReport {
  undetermined_reads: number;
  samples: Array<{ name: string; reads: number }>;
  detection: {
    sampled_reads: number;
    chosen: { id: string; readable: number; assigned: number };
    refusal: string | null;
  };
}

/** Runs `laneway demux` on a generated lane with `args`; its run, report and per-sample counts. */
export async function lanewayDemux(lane: UltraplexLane, out: string, args: string[]) {
  const run = await runCliToEnd([
    'demux',
    '--sheet',
    lane.sheet,
    '--input',
    lane.read1,
    ...(lane.read2 ? ['--input2', lane.read2] : []),
    '--out',
    out,
    ...args,
  ]);
  const report = JSON.parse(readFileSync(join(out, 'demux-report.json'), 'utf8')) as DemuxReport;
  const counts: Record<string, number> = Object.fromEntries(report.samples.map((s) => [s.name, s.reads]));
  counts.Undetermined = report.undetermined_reads;
  return { run, report, counts };
}

/** Runs `laneway demux` on a case's lane; its per-sample counts and report. */
export async function lanewayOnCase(dir: string, c: UltraplexCase) {
  mkdirSync(dir, { recursive: true });
  const lane = generateUltraplexLane({ ...c.lane, dir });
  const out = join(dir, 'laneway');
  return { lane, out, ...(await lanewayDemux(lane, out, c.lanewayArgs)) };
}
