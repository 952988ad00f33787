/**
 * The lanes the byte-identity test (demux-golden.test.ts) demultiplexes: every index design and
 * the header fields the world writes, and inline designs. Header indexes follow Illumina's FASTQ
 * header, `@<instrument>:<run>:<flowcell>:<lane>:<tile>:<x>:<y> <read>:<filtered>:<control>:<index>`
 * with `ACGT+TTGA` for dual indexes (BCL Convert; the index may hold N bases:
 * https://support.illumina.com/help/BaseSpace_Sequence_Hub_OLH_009008_2/Source/Informatics/BS/FileFormat_FASTQ-files_swBS.htm);
 * bcl2fastq writes a sample number instead (`1:N:0:1`), Undetermined reads keep the bases.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { demultiplex, type DemuxInput } from '../../../src/service/tools/demux/demultiplexer';
import { choosePlacement } from '../../../src/service/tools/demux/placement';
import { SAMPLE_READS } from '../../../src/service/tools/demux/read-sample';
import { planFromRows, type BarcodeSource } from '../../../src/service/tools/demux/plan';
import { generateDesignLane, type DesignLane, type DesignLaneSpec } from '../../helpers/design-lane-generator';
import { prng } from '../../helpers/fastq-generator';

/** How a header's index field is rewritten: the read number, the field; the new field. */
type HeaderRewrite = (read: number, field: string, rand: () => number) => string;

export interface GoldenCase {
  name: string;
  lane: Omit<DesignLaneSpec, 'dir'>;
  mismatches?: number;
  source?: BarcodeSource;
  headers?: HeaderRewrite;
  crlf?: boolean;
}

const base = { samples: 12, readLength: 100, mismatchFraction: 0.04, undeterminedFraction: 0.03 } as const;

/** Some index fields as instruments also write them: an N, one base more or fewer, a sample number. */
const oddFields: HeaderRewrite = (read, field, rand) => {
  const k = read % 40;
  if (k === 1) return field.replace(/^(.{3})./, '$1N');
  if (k === 2) return field.replace(/\+(.{2})./, '+$1N');
  if (k === 3) return field.replace(/^([A-Z]+)/, '$1AT');
  if (k === 4) return field.replace(/^[A-Z]/, '');
  if (k === 5) return '1';
  if (k === 6) return '';
  if (k === 7) return field.replace(/\+.*/, '');
  if (k === 8) return `${field}+${rand() < 0.5 ? 'ACGTACGT' : 'GGGG'}`;
  return field;
};

export const GOLDEN_CASES: GoldenCase[] = [
  {
    name: 'header single index, BCL Convert names',
    lane: { ...base, kind: 'single-index-reads', reads: 6000, indexInHeader: true, longNames: true, seed: 101 },
  },
  {
    name: 'header dual index, BCL Convert names, hopping',
    lane: {
      ...base,
      kind: 'dual-index-reads',
      reads: 6000,
      hoppingFraction: 0.02,
      indexInHeader: true,
      longNames: true,
      seed: 102,
    },
  },
  {
    name: 'header dual index, paired, gzip',
    lane: { ...base, kind: 'dual-header', reads: 5000, paired: true, gzip: true, hoppingFraction: 0.01, seed: 103 },
  },
  {
    name: 'header dual index, i5 reverse-complemented in the sheet',
    lane: { ...base, kind: 'dual-header', reads: 3000, sheetI5ReverseComplemented: true, seed: 104 },
  },
  {
    name: 'header single index, two mismatches',
    lane: { ...base, kind: 'single-header', reads: 4000, seed: 105 },
    mismatches: 2,
  },
  {
    name: 'header dual index, no mismatches, odd index fields',
    lane: { ...base, kind: 'dual-index-reads', reads: 4000, indexInHeader: true, longNames: true, seed: 106 },
    mismatches: 0,
    headers: oddFields,
  },
  {
    name: 'header dual index, odd index fields, CRLF, paired',
    lane: { ...base, kind: 'dual-header', reads: 4000, paired: true, seed: 107 },
    headers: oddFields,
    crlf: true,
  },
  {
    name: 'header single index, odd index fields, given as header',
    lane: { ...base, kind: 'single-index-reads', reads: 4000, indexInHeader: true, seed: 108 },
    source: 'header',
    headers: oddFields,
  },
  {
    name: 'header dual index over many chunks, paired',
    lane: {
      ...base,
      kind: 'dual-index-reads',
      reads: 40_000,
      readLength: 150,
      paired: true,
      indexInHeader: true,
      longNames: true,
      seed: 109,
    },
  },
  {
    name: 'dual index from I1/I2 files',
    lane: { ...base, kind: 'dual-index-reads', reads: 6000, hoppingFraction: 0.02, seed: 110 },
  },
  {
    name: 'single index from an I1 file, gzip',
    lane: { ...base, kind: 'single-index-reads', reads: 4000, gzip: true, seed: 111 },
  },
  { name: 'inline 5 prime with UMIs, paired', lane: { ...base, kind: 'mixed5', reads: 4000, paired: true, seed: 112 } },
  { name: 'inline combinatorial', lane: { ...base, kind: 'combinatorial', reads: 4000, seed: 113 } },
];

/** Rewrites a FASTQ file's header index fields and, optionally, its line ends to CRLF. */
export function rewriteHeaders(path: string, rewrite: HeaderRewrite | null, crlf: boolean): void {
  const gz = path.endsWith('.gz');
  const raw = readFileSync(path);
  const lines = (gz ? gunzipSync(raw) : raw).toString('latin1').split('\n');
  const rand = prng(7);
  for (let i = 0; i + 3 < lines.length; i += 4) {
    const h = lines[i]!;
    const colon = h.lastIndexOf(':');
    if (rewrite && colon > h.indexOf(' ')) lines[i] = h.slice(0, colon + 1) + rewrite(i / 4, h.slice(colon + 1), rand);
  }
  const text = Buffer.from(lines.join(crlf ? '\r\n' : '\n'), 'latin1');
  writeFileSync(path, gz ? gzipSync(text) : text);
}

export type Hashes = Record<string, string>;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Generates a case's lane in `dir` (with its header rewrites and line ends). */
export function goldenLane(c: GoldenCase, dir: string): DesignLane {
  mkdirSync(dir, { recursive: true });
  const lane = generateDesignLane({ ...c.lane, dir });
  for (const path of [lane.read1, lane.read2, lane.index1, lane.index2]) {
    if (path && (c.headers || c.crlf)) rewriteHeaders(path, c.headers ?? null, !!c.crlf);
  }
  return lane;
}

/**
 * Demultiplexes a case's lane as `laneway demux` does (placement chosen from the first reads);
 * the sha256 of each file it wrote (gzip decompressed) and of its report without the time.
 */
export async function goldenHashes(
  c: GoldenCase,
  lane: DesignLane,
  outDir: string,
  extra: Partial<DemuxInput> = {},
): Promise<Hashes> {
  const { plan } = planFromRows(lane.rows, { mismatches: c.mismatches, source: c.source });
  if (!plan) throw new Error(`${c.name}: the sheet has errors`);
  // Lanes with the indexes in their headers are demultiplexed from the headers (their I1/I2
  // files, written for fastq-multx, are not given), as `laneway demux` without --index1.
  const indexFiles = c.lane.indexInHeader ? {} : { index1: lane.index1, index2: lane.index2 };
  const files = { read1: lane.read1, read2: lane.read2, ...indexFiles };
  // On the full sample, as when the hashes were written: the report holds the detection's counts,
  // and a plain lane is now judged on its first 1,000 reads (placement-first-reads.test.ts holds
  // that judgement to this one's choice).
  const chosen = await choosePlacement(plan, files, {
    given: c.source !== undefined && c.source !== 'auto',
    reads: SAMPLE_READS,
  });
  await demultiplex(chosen.plan, { ...files, detection: chosen.detection, outDir, ...extra });
  const out: Hashes = {};
  for (const f of readdirSync(outDir).sort()) {
    const raw = readFileSync(join(outDir, f));
    if (f === 'demux-report.json') {
      const report = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      delete report.seconds;
      out[f] = sha(JSON.stringify(report));
    } else out[f] = sha(f.endsWith('.gz') ? gunzipSync(raw) : raw);
  }
  return out;
}
