/**
 * The streaming demultiplexer: one pass over a lane (single or paired, fastq or fastq.gz, with
 * I1/I2 index-read files when the indexes come as reads), each read assigned to a sample by its
 * barcode segments (exact, or within each segment's allowed mismatches), mates kept in step
 * (read 2 follows read 1), reads without a sample kept in Undetermined. Writes one file per
 * sample and read, plus `demux-report.json` with the counts, the top unknown barcodes with
 * their nearest sample, index hopping, and the likely cause when most reads are undetermined.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnoseUndetermined, nearestSample, type Diagnosis } from '../../../shared/annotation/matcher';
import { ENDS_SEPARATOR } from '../../../shared/annotation/design';
import { reverseComplement } from '../../../shared/annotation/barcodes';
import { UNDETERMINED, demuxFileName } from '../../../shared/annotation/names';
import { UnknownBarcodes, decode } from './barcode-index';
import { FastqReader, isGzipFile } from './fastq-reader';
import { ChunkPool } from './chunk-pool';
import { makeIndexHandler } from './index-handlers';
import { nativeScanner, type NativeScanner } from './native-scan';
import { MeasuredChooser, THREAD_MIN_BYTES, fixedMode, type OutputChooser } from './output-mode';
import { OutputSink } from './output-sink';
import { OutputThread, laneBytes } from './output-thread';
import { phase } from './phase-times';
import type { DemuxPlan } from './plan';
import type { PlacementDetection } from './placement';
import { Where, headerIndexField, makeHandler, sameReadName, type Routing } from './record-handlers';
import { SegmentTable } from './segment-table';
import { segmentParts } from '../../../shared/annotation/matcher';

export interface DemuxInput {
  read1: string;
  read2?: string;
  /** Index reads as files (I1, I2), as BCL Convert writes them with --create-fastq-for-index-reads. */
  index1?: string;
  index2?: string;
  outDir: string;
  /** gzip the outputs; default: when read 1 is gzip. */
  gzipOutput?: boolean;
  /** gzip level of the outputs (1 fastest to 9 smallest). */
  compressionLevel?: number;
  /** Stop after this many reads (test mode). */
  maxReads?: number;
  /** Called about every 64k reads with the fraction of read 1 consumed. */
  onProgress?: (fraction: number, reads: number) => void;
  signal?: AbortSignal;
  /** How the barcodes' placement was chosen from the first reads (kept in the report). */
  detection?: PlacementDetection | null;
  /**
   * Copy, write and compress on an output thread (true: as soon as it has started) or on this
   * one (false); default: for a large lane that the native scan does not take, on whichever the
   * lane measures faster (output-mode.ts). An OutputThread started beforehand is used, and
   * stopped at the end. The bytes are the same.
   */
  outputThread?: boolean | OutputThread;
  /** Decides the output's thread instead (tests: switching at will); the bytes are the same. */
  outputChooser?: OutputChooser;
  /**
   * 'generic': every design through the one general record handler, never a design's fast path;
   * 'js': the fast paths without the native scan (native-scan.ts); default: both where they fit.
   * The tests compare them; the bytes are the same.
   */
  engine?: 'generic' | 'js';
  /** Counts the reads the native scan took (native-scan.ts), for tests. */
  counters?: { nativeReads: number };
  /** Bytes of a plain input read into each chunk (default 4 MiB; tests use less, for many chunks). */
  chunkBytes?: number;
}

export interface DemuxSampleResult {
  name: string;
  barcode: string;
  reads: number;
  /** Reads assigned through one mismatch (over all segments). */
  one_mismatch: number;
  /** Reads assigned through two or more mismatches. */
  two_mismatches: number;
  /** Output files, relative to outDir: read 1, then read 2 for paired lanes. */
  files: string[];
}

export interface DemuxResult {
  source: 'inline' | 'header' | 'index-reads';
  /** Segments of the design: 5', 3' (inline) or i7, i5 (indexes). */
  segments: string[];
  layout: string | null;
  /** The largest of the per-segment mismatches. */
  mismatches: number;
  /** Mismatches allowed per segment, and the most the barcodes' distances allow. */
  segment_mismatches: number[];
  max_mismatches: number[];
  /** The read whose sequence carried inline barcodes (null for index designs). */
  barcode_read: 1 | 2 | null;
  paired: boolean;
  gzip: boolean;
  total_reads: number;
  assigned_reads: number;
  undetermined_reads: number;
  /** undetermined_reads / total_reads (0 for an empty lane). */
  undetermined_fraction: number;
  samples: DemuxSampleResult[];
  undetermined_files: string[];
  /** The most frequent barcodes that matched no sample, with the nearest sample's barcode. */
  top_unknown: Array<{ barcode: string; count: number; nearest: string | null; distance: number | null }>;
  /**
   * Two segments that each matched a barcode of the sheet, in a pair that is no sample: index
   * hopping for dual indexes (i7 of one sample with i5 of another), unexpected pairs for 5'+3'.
   */
  hopping: {
    reads: number;
    fraction: number;
    top: Array<{ barcode: string; count: number; samples: string[] }>;
  } | null;
  /** When most reads are undetermined and one usual cause explains them. */
  diagnosis: Diagnosis | null;
  /** The adapter a 3' barcode was read before (and cut with), or null. */
  adapter: string | null;
  /** Where the barcodes were found: the chosen placement, the runner-up, every candidate's share. */
  detection: PlacementDetection | null;
  seconds: number;
}

export const REPORT_FILE = 'demux-report.json';
export const DEFAULT_COMPRESSION_LEVEL = 1;
const TOP_UNKNOWN = 20;

/** Demultiplexes a lane according to the plan. */
export async function demultiplex(plan: DemuxPlan, input: DemuxInput): Promise<DemuxResult> {
  const given = input.outputThread instanceof OutputThread ? input.outputThread : null;
  try {
    return await demultiplexWith(plan, input);
  } finally {
    // Stopped by the sink once it took it; a failure before that leaves it here.
    await given?.stop();
  }
}

async function demultiplexWith(plan: DemuxPlan, input: DemuxInput): Promise<DemuxResult> {
  const t0 = process.hrtime.bigint();
  if (plan.samples.length === 0) throw new Error('The plan has no samples');
  const paired = !!input.read2;
  const design = plan.design;
  if (plan.barcodeRead === 2 && !paired) throw new Error('The barcodes are on read 2, but the lane has no read 2');
  if (plan.threeOnRead2 && !paired) throw new Error("The 3' barcodes are on read 2, but the lane has no read 2");
  if (plan.source === 'index-reads' && !input.index1)
    throw new Error('The indexes come as index reads: give the I1 file');
  if (plan.source === 'index-reads' && design.dual && !input.index2) {
    throw new Error('The sheet has dual indexes: give the I2 file as well as I1');
  }
  const gz = input.gzipOutput ?? isGzipFile(input.read1);
  mkdirSync(input.outDir, { recursive: true });
  const useIndexReads = plan.source === 'index-reads';
  // Output files by number: read 1 of every sample, read 2 of every sample, then Undetermined.
  const files = (name: string, read: 1 | 2) => demuxFileName(name, read, paired, gz);
  const n = plan.samples.length;
  const outputs = [
    ...plan.samples.map((s) => files(s.name, 1)),
    ...(paired ? plan.samples.map((s) => files(s.name, 2)) : []),
    files(UNDETERMINED, 1),
    ...(paired ? [files(UNDETERMINED, 2)] : []),
  ].map((f) => join(input.outDir, f));
  const chunks = new ChunkPool();
  const reader = (path: string) => new FastqReader(path, chunks, input.chunkBytes);
  const r1 = reader(input.read1);
  const r2 = input.read2 ? reader(input.read2) : null;
  const i1 = useIndexReads && input.index1 ? reader(input.index1) : null;
  const i2 = useIndexReads && input.index2 && design.dual ? reader(input.index2) : null;
  const parts = segmentParts(design);
  // Paired 5'+3' (Ultraplex -i2): the 3' barcodes as read 2 starts with them, reverse-complemented.
  const onRead2 = (segment: string) => plan.threeOnRead2 === true && segment === "3'";
  const segments = design.segments.map(
    (segment, s) =>
      new SegmentTable(
        onRead2(segment)
          ? parts[s]!.map((p) => ({ bases: reverseComplement(p.bases), layout: [...p.layout].reverse().join('') }))
          : parts[s]!,
        segment === "3'" && !onRead2(segment),
        plan.mismatches[s] ?? plan.mismatches[0] ?? 0,
      ),
  );
  // Each sample's key per segment (the position of its part among the segment's distinct parts).
  const keys = design.barcodes.map((b) =>
    b.parts.map((p, s) => parts[s]!.findIndex((k) => k.layout === p.layout && k.bases === p.bases)),
  );
  const n1 = segments[1]?.keys.length ?? 0;
  const pairs = segments.length === 2 ? new Int32Array(segments[0]!.keys.length * n1).fill(-1) : null;
  const single = pairs ? null : new Int32Array(segments[0]!.keys.length).fill(-1);
  keys.forEach((k, sample) => {
    if (pairs) pairs[k[0]! * n1 + k[1]!] = sample;
    else single![k[0]!] = sample;
  });
  const len1 = segments[1]?.longest ?? 0;
  const separator = design.dual ? '+' : ENDS_SEPARATOR;
  // Copying, writing and compressing may happen on the output thread (plain blocks written by
  // the thread itself, gzip members deflated on the thread pool), so that parsing need not wait.
  const level = gz ? (input.compressionLevel ?? DEFAULT_COMPRESSION_LEVEL) : 0;
  const asked = input.outputThread;
  // A thread asked for runs from the start. Otherwise a large lane's thread starts at the first
  // read, and only when the native scan does not take the lane: where it does (index lanes), the
  // copies are C's and the thread's start, beside the parser, and its hand-overs cost more than
  // it saves (docs/benchmarks.md, "Header indexes").
  const thread = asked instanceof OutputThread ? asked : asked === true ? new OutputThread() : null;
  const threadLater =
    asked === undefined && laneBytes([input.read1, input.read2, input.index1, input.index2]) >= THREAD_MIN_BYTES;
  const chooser =
    input.outputChooser ??
    (asked === true ? fixedMode('thread') : asked === false ? fixedMode('here') : new MeasuredChooser());
  const sink = new OutputSink(outputs, level, chunks, asked === false ? null : thread, chooser);
  const route: Routing = {
    segments,
    where: [],
    pairs,
    n1,
    single,
    barcodeRead: 0,
    adapter: plan.adapter ? Buffer.from(plan.adapter, 'latin1') : null,
    mateAdapter: plan.threeOnRead2 && plan.mateAdapter ? Buffer.from(plan.mateAdapter, 'latin1') : null,
    read1: plan.samples.map((_, i) => i),
    read2: paired ? plan.samples.map((_, i) => n + i) : null,
    undetermined1: paired ? 2 * n : n,
    undetermined2: paired ? 2 * n + 1 : null,
    sink,
    counts: new Float64Array(plan.samples.length),
    oneMismatch: new Float64Array(plan.samples.length),
    twoMismatches: new Float64Array(plan.samples.length),
    unknown: new UnknownBarcodes((code) =>
      len1
        ? `${decode(Math.floor(code / 5 ** len1), segments[0]!.longest)}${separator}${(plan.threeOnRead2 ? reverseComplement : String)(decode(code % 5 ** len1, len1))}`
        : decode(code, segments[0]!.longest),
    ),
    hops: new Map(),
    hopped: 0,
    undetermined: 0,
    samples: [],
  };
  let source: DemuxResult['source'] | null =
    plan.source === 'auto' ? null : plan.source === 'inline' ? 'inline' : plan.source;
  let reads = 0;
  const field = new Int32Array(3);
  // Most records are already in the buffer: only a refill awaits (a promise per read costs GC).
  const refillOrFail = async (r: FastqReader, what: string) => {
    while (!r.next()) {
      if (!(await r.refill())) throw new Error(`${r.path}: fewer reads than ${input.read1} (${what})`);
    }
  };
  // Every 1,024 reads: the output's measurements, its back-pressure, progress and cancelling.
  const every1024 = async () => {
    sink.tick(reads, performance.now());
    if (sink.saturated) await sink.drain();
    if ((reads & 65535) === 0) {
      input.onProgress?.(r1.progress, reads);
      // Plain input never waits on I/O: let signals and pipes be served now and then.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (input.signal?.aborted) throw new Error('Demultiplexing was cancelled');
    }
  };
  const inStep = (r: FastqReader) => {
    if ((reads & 1023) === 0 && !sameReadName(r1, r)) {
      throw new Error(
        `Read ${reads + 1} has different names in ${input.read1} and ${r.path}: the files are out of step`,
      );
    }
  };
  try {
    let handle: ReturnType<typeof makeHandler> | null = null;
    let scanner: NativeScanner | null = null;
    const maxReads = input.maxReads ?? Infinity;
    for (;;) {
      // The native scan takes the records it can, up to the next tick (and never the record on
      // which the files' read names are compared); the next is JavaScript's.
      if (scanner && !(scanner.inStep && (reads & 1023) === 0)) {
        const taken = scanner.scan(Math.min(1024 - (reads & 1023), maxReads - reads));
        if (taken > 0) {
          reads += taken;
          if (reads >= maxReads) break;
          if ((reads & 1023) === 0) await every1024();
          continue;
        }
      }
      if (!r1.next()) {
        if (await r1.refill()) continue;
        break;
      }
      if (r2) {
        if (!r2.next()) await refillOrFail(r2, 'read 2');
        inStep(r2);
      }
      if (i1) {
        if (!i1.next()) await refillOrFail(i1, 'index read 1');
        inStep(i1);
      }
      if (i2) {
        if (!i2.next()) await refillOrFail(i2, 'index read 2');
        inStep(i2);
      }
      if (!handle) {
        phase('first read');
        // auto: the header carries the barcodes when its index field is made of bases.
        source ??= headerIndexField(r1, field) ? 'header' : 'inline';
        const inline = source === 'inline';
        route.barcodeRead = inline ? plan.barcodeRead : 0;
        route.where = design.segments.map((_, s) =>
          inline
            ? plan.barcodeRead === 2 || onRead2(design.segments[s]!)
              ? Where.Read2
              : Where.Read1
            : source === 'index-reads'
              ? s === 0
                ? Where.Index1
                : Where.Index2
              : s === 0
                ? Where.HeaderI7
                : Where.HeaderI5,
        );
        const fast = input.engine !== 'generic' ? makeIndexHandler(route) : null;
        handle = fast ?? makeHandler(route);
        scanner = fast && input.engine === undefined ? nativeScanner(route, r1, r2, i1, i2, input.counters) : null;
        if (threadLater && !scanner) sink.attach(new OutputThread());
      }
      handle(r1, r2, i1, i2);
      if (++reads >= maxReads) break;
      if ((reads & 1023) === 0) await every1024();
    }
    for (const [r, what] of [
      [r2, 'read 2'],
      [i1, 'index read 1'],
      [i2, 'index read 2'],
    ] as const) {
      if (r && reads < maxReads && (r.next() || (await r.refill()))) {
        throw new Error(`${r.path}: more reads than ${input.read1} (${what})`);
      }
    }
    // The last chunks go to the output thread with the last operations.
    for (const r of [r1, r2, i1, i2]) r?.release();
    phase('last read');
    await sink.finish();
    phase('outputs closed');
  } finally {
    await sink.abort();
    for (const r of [r1, r2, i1, i2]) r?.close();
  }
  input.onProgress?.(1, reads);
  const inline = (source ?? 'inline') === 'inline';
  const unknownTop = route.unknown.top(TOP_UNKNOWN).map((u) => {
    const near = nearestSample(design, u.barcode);
    return { ...u, nearest: near?.sample ?? null, distance: near?.distance ?? null };
  });
  const undeterminedFraction = reads ? route.undetermined / reads : 0;
  const hopTop = [...route.hops.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_UNKNOWN)
    .map(([pair, count]) => {
      const k0 = Math.floor(pair / n1);
      const k1 = pair % n1;
      const owners = (s: number, k: number) => keys.flatMap((ks, i) => (ks[s] === k ? [plan.samples[i]!.name] : []));
      return {
        barcode: `${segments[0]!.keys[k0]!.bases}${separator}${parts[1]![k1]!.bases}`,
        count,
        samples: [...new Set([...owners(0, k0), ...owners(1, k1)])],
      };
    });
  const result: DemuxResult = {
    source: source ?? 'inline',
    segments: [...design.segments],
    layout: plan.layout,
    mismatches: Math.max(...plan.mismatches),
    segment_mismatches: [...plan.mismatches],
    max_mismatches: [...plan.maxMismatches],
    barcode_read: inline ? plan.barcodeRead : null,
    paired,
    gzip: gz,
    total_reads: reads,
    assigned_reads: reads - route.undetermined,
    undetermined_reads: route.undetermined,
    undetermined_fraction: undeterminedFraction,
    samples: plan.samples.map((s, i) => ({
      name: s.name,
      barcode: s.barcode,
      reads: route.counts[i]!,
      one_mismatch: route.oneMismatch[i]!,
      two_mismatches: route.twoMismatches[i]!,
      files: paired ? [files(s.name, 1), files(s.name, 2)] : [files(s.name, 1)],
    })),
    undetermined_files: paired ? [files(UNDETERMINED, 1), files(UNDETERMINED, 2)] : [files(UNDETERMINED, 1)],
    top_unknown: unknownTop,
    hopping: pairs ? { reads: route.hopped, fraction: reads ? route.hopped / reads : 0, top: hopTop } : null,
    diagnosis: undeterminedFraction > 0.5 ? diagnoseUndetermined(design, plan.mismatches, route.samples, inline) : null,
    adapter: plan.adapter ?? null,
    detection: input.detection ?? null,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
  writeFileSync(join(input.outDir, REPORT_FILE), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
