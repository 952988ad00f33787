/**
 * The streaming demultiplexer: one pass over a lane (single or paired, fastq or fastq.gz),
 * each read assigned to a sample by its barcode (exact, or within the allowed mismatches),
 * mates kept in step (read 2 follows read 1), reads without a barcode kept in Undetermined.
 * Writes one file per sample and read, plus `demux-report.json` with the counts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNDETERMINED, demuxFileName } from '../../shared/annotation/names';
import { BarcodeIndex, UnknownBarcodes } from './barcode-index';
import { FastqReader, isGzipFile } from './fastq-reader';
import { CompressionPool, FastqWriter } from './fastq-writer';
import type { DemuxPlan } from './plan';
import { headerHandler, headerIndexCode, inlineHandler, sameReadName, type Routing } from './record-handlers';

export interface DemuxInput {
  read1: string;
  read2?: string;
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
}

export interface DemuxSampleResult {
  name: string;
  barcode: string;
  reads: number;
  /** Reads assigned through one mismatch. */
  one_mismatch: number;
  /** Output files, relative to outDir: read 1, then read 2 for paired lanes. */
  files: string[];
}

export interface DemuxResult {
  source: 'inline' | 'header';
  layout: string | null;
  mismatches: number;
  paired: boolean;
  gzip: boolean;
  total_reads: number;
  assigned_reads: number;
  undetermined_reads: number;
  samples: DemuxSampleResult[];
  undetermined_files: string[];
  /** The most frequent barcodes that matched no sample. */
  top_unknown: Array<{ barcode: string; count: number }>;
  seconds: number;
}

export const REPORT_FILE = 'demux-report.json';
export const DEFAULT_COMPRESSION_LEVEL = 1;
const TOP_UNKNOWN = 20;

/** Demultiplexes a lane according to the plan. */
export async function demultiplex(plan: DemuxPlan, input: DemuxInput): Promise<DemuxResult> {
  const t0 = process.hrtime.bigint();
  if (plan.samples.length === 0) throw new Error('The plan has no samples');
  const paired = !!input.read2;
  const gz = input.gzipOutput ?? isGzipFile(input.read1);
  mkdirSync(input.outDir, { recursive: true });
  const r1 = new FastqReader(input.read1);
  const r2 = input.read2 ? new FastqReader(input.read2) : null;
  const pool = gz ? new CompressionPool(input.compressionLevel ?? DEFAULT_COMPRESSION_LEVEL) : null;
  const dual = plan.samples[0]!.barcode.includes('+');
  const i7Length = dual ? plan.samples[0]!.barcode.indexOf('+') : 0;
  const barcodes = plan.samples.map((s) => s.barcode.replace('+', ''));
  const length = barcodes[0]!.length;
  const files = (name: string, read: 1 | 2) => demuxFileName(name, read, paired, gz);
  const open = (name: string, read: 1 | 2) => new FastqWriter(join(input.outDir, files(name, read)), pool);
  const route: Routing = {
    index: new BarcodeIndex(barcodes, length, plan.mismatches),
    read1: plan.samples.map((s) => open(s.name, 1)),
    read2: paired ? plan.samples.map((s) => open(s.name, 2)) : null,
    undetermined1: open(UNDETERMINED, 1),
    undetermined2: paired ? open(UNDETERMINED, 2) : null,
    counts: new Float64Array(plan.samples.length),
    mismatched: new Float64Array(plan.samples.length),
    unknown: new UnknownBarcodes(length),
    undetermined: 0,
  };
  const writers = [...route.read1, ...(route.read2 ?? []), route.undetermined1, route.undetermined2];
  let source: 'inline' | 'header' | null = plan.layout || plan.source === 'inline' ? 'inline' : null;
  if (dual || plan.source === 'header') source = 'header';
  let reads = 0;
  try {
    let handle: ((a: FastqReader, b: FastqReader | null) => void) | null = null;
    const maxReads = input.maxReads ?? Infinity;
    for (;;) {
      if (!r1.next()) {
        if (await r1.refill()) continue;
        break;
      }
      if (r2) {
        while (!r2.next()) {
          if (!(await r2.refill())) throw new Error(`${input.read2}: fewer reads than ${input.read1}`);
        }
        if ((reads & 1023) === 0 && !sameReadName(r1, r2)) {
          throw new Error(`Read ${reads + 1} has different names in the two files: the mates are out of step`);
        }
      }
      if (!handle) {
        // auto: the header carries the barcodes when its index field has their shape.
        source ??= headerIndexCode(r1, length, i7Length) >= 0 ? 'header' : 'inline';
        handle =
          source === 'header'
            ? headerHandler(route, length, i7Length)
            : inlineHandler(route, plan.layout ?? 'X'.repeat(length));
      }
      handle(r1, r2);
      if (++reads >= maxReads) break;
      if ((reads & 1023) === 0) {
        if (pool?.saturated) await pool.slot();
        if ((reads & 65535) === 0) {
          input.onProgress?.(r1.progress, reads);
          // Plain input never waits on I/O: let signals and pipes be served now and then.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (input.signal?.aborted) throw new Error('Demultiplexing was cancelled');
        }
      }
    }
    if (r2 && reads < maxReads && (r2.next() || (await r2.refill()))) {
      throw new Error(`${input.read2}: more reads than ${input.read1}`);
    }
    for (const w of writers) w?.flush();
    await pool?.idle();
  } finally {
    await pool?.idle().catch(() => undefined);
    for (const w of writers) w?.close();
    r1.close();
    r2?.close();
  }
  input.onProgress?.(1, reads);
  const unknownTop = route.unknown.top(TOP_UNKNOWN).map((u) => ({
    barcode: dual ? `${u.barcode.slice(0, i7Length)}+${u.barcode.slice(i7Length)}` : u.barcode,
    count: u.count,
  }));
  const result: DemuxResult = {
    source: source ?? 'inline',
    layout: plan.layout,
    mismatches: plan.mismatches,
    paired,
    gzip: gz,
    total_reads: reads,
    assigned_reads: reads - route.undetermined,
    undetermined_reads: route.undetermined,
    samples: plan.samples.map((s, i) => ({
      name: s.name,
      barcode: s.barcode,
      reads: route.counts[i]!,
      one_mismatch: route.mismatched[i]!,
      files: paired ? [files(s.name, 1), files(s.name, 2)] : [files(s.name, 1)],
    })),
    undetermined_files: paired ? [files(UNDETERMINED, 1), files(UNDETERMINED, 2)] : [files(UNDETERMINED, 1)],
    top_unknown: unknownTop,
    seconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
  writeFileSync(join(input.outDir, REPORT_FILE), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
