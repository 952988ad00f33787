/**
 * Checks the sheet's barcodes against the first reads of the lane, in the browser, before
 * anything is uploaded, with the lane's layout and mismatches and the service's matching rule
 * (src/shared/annotation/matcher): reads per sample, the most frequent unknown barcodes with
 * their nearest sample, index hopping, and when most reads would be undetermined, the usual
 * cause that fits (a reverse-complemented i5, a wrong layout, the barcode on the other read).
 * A 3' barcode is read where the upload's demultiplexer reads it (src/shared/demux/three-prime):
 * at the read's end, right before the adapter, or at read 2's start, whichever assigns the most.
 * When most reads miss where the design puts the barcodes, the check chooses the placement as the
 * upload does (src/shared/demux/placement-detect: the header's indexes either way round, inline
 * a few bases in, the 3' end, the other read) and counts there: it once warned that 98% of an
 * inline lane would be undetermined, while the upload found its barcodes 3 bases in and
 * demultiplexed 99% of it.
 */
import {
  diagnoseUndetermined,
  makeMatcher,
  nearestSample,
  type BarcodeDesign,
  type Diagnosis,
  type ReadBarcodes,
} from '../../../../shared/annotation';
import { reverseComplement } from '../../../../shared/annotation/barcodes';
import { detectAdapter } from '../../../../shared/demux/adapter';
import { gunzipStream, isGzip } from './gunzip-stream';
import {
  adapterBytes,
  threePrimePlacements,
  threePrimeText,
  type ThreePrimePlacement,
} from '../../../../shared/demux/three-prime';
import { headerIndex } from '../../../../shared/read-names';
import { detectPlacement } from '../../../../shared/demux/placement-detect';
import type { LaneSample, PlacementPlan, SampledRead } from '../../../../shared/demux/placement-plan';

export interface SampleCount {
  sample: string;
  row: number;
  barcode: string;
  reads: number;
  /** Reads assigned through mismatches. */
  mismatched: number;
}

export interface BarcodeCheck {
  readsScanned: number;
  /** Where the barcodes were read. */
  location: 'inline' | 'header' | 'index-reads';
  samples: SampleCount[];
  unknown: Array<{ barcode: string; reads: number; nearest: string | null; distance: number | null }>;
  assigned: number;
  /** Reads whose segments each matched a barcode, in a pair that is no sample (index hopping). */
  hopped: number;
  /**
   * Reads whose barcodes can be read: all of them, except, with the 3' barcode before an
   * adapter, the reads showing no adapter (the insert runs past the read's end, and the upload
   * leaves them undetermined too: Ultraplex's rule).
   */
  readable: number;
  /** Share of the readable reads that match no sample (the upload refuses a lane above one half). */
  undeterminedFraction: number;
  diagnosis: Diagnosis | null;
  /** Where a 3' barcode was read (the placement that assigned the most reads), or null without one. */
  threePrime: ThreePrimePlacement | null;
  /**
   * Set when the upload will read the barcodes elsewhere than the design puts them (most reads
   * missed there, and its placement detection found where they match): in a technician's words,
   * with the share of the sampled reads it assigns. The counts above are then those of that place.
   */
  detected: { description: string; assigned: number; sampled: number } | null;
}

/** Options of the check; the adapter defaults to a known one found in the reads, as the upload's. */
export interface CheckOptions {
  /** The lane's read 2, when the barcodes are on read 1 (a 3' barcode may be at read 2's start). */
  read2?: readonly string[] | null;
  adapter?: string | null;
}

/** The files of a lane the check reads. */
export interface CheckFiles {
  fastq: File;
  read2: File | null;
  index1: File | null;
  index2: File | null;
}

/** Reads checked by default: enough for a share, quick on any laptop. */
export const CHECK_READS = 20_000;
/** Above this undetermined share the lane gets a loud warning before samples are created. */
export const MOSTLY_UNDETERMINED = 0.5;

const MAX_BYTES = 16 * 1024 * 1024;

/** The first reads of a FASTQ (gzip or plain) as [header, sequence] pairs. */
export async function firstReads(file: Blob, limit: number): Promise<Array<[string, string]>> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const stream = (isGzip(head) ? gunzipStream(file) : file.stream()) as ReadableStream<BufferSource>;
  const reader = stream.pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, BufferSource>).getReader();
  let text = '';
  const reads: Array<[string, string]> = [];
  while (reads.length < limit && text.length < MAX_BYTES) {
    const { value, done } = await reader.read();
    if (value) text += value;
    const lines = text.split('\n');
    const complete = done ? lines.length : lines.length - 1;
    let i = 0;
    for (; i + 3 < complete && reads.length < limit; i += 4) {
      if (!lines[i]!.startsWith('@')) throw new Error(`Line ${reads.length * 4 + 1} of the FASTQ is not a read header`);
      reads.push([lines[i]!.replace(/\r$/, ''), lines[i + 1]!.trim()]);
    }
    text = lines.slice(i).join('\n');
    if (done) break;
  }
  await reader.cancel().catch(() => {});
  return reads;
}

/** Reads the lane's first reads and checks them against the design, where the upload would read them. */
export async function runBarcodeCheck(
  files: CheckFiles,
  design: BarcodeDesign,
  mismatches: readonly number[],
  barcodeRead: 1 | 2,
  limit = CHECK_READS,
  options: Pick<CheckOptions, 'adapter'> = {},
): Promise<BarcodeCheck> {
  const r1 = await firstReads(files.fastq, limit);
  const r2 = files.read2 ? await firstReads(files.read2, limit) : null;
  const i1 = files.index1 ? await firstReads(files.index1, limit) : null;
  const i2 = files.index2 ? await firstReads(files.index2, limit) : null;
  const first = r1[0] ? headerIndex(r1[0][0]) : null;
  const location: BarcodeCheck['location'] = i1
    ? 'index-reads'
    : design.kind === 'index' || (design.kind === 'plain' && first)
      ? 'header'
      : 'inline';
  const lane = { r1, r2, i1, i2 };
  const asIs = checkAt(lane, design, mismatches, location, barcodeRead, options);
  if (asIs.undeterminedFraction <= MOSTLY_UNDETERMINED || r1.length === 0) return asIs;
  // As the upload does (its lane route sends no barcode source: detection is always on).
  const sampled = (reads: Array<[string, string]> | null): SampledRead[] | null =>
    reads && reads.map(([header, seq]) => ({ header, seq: seq.toUpperCase() }));
  const sample: LaneSample = { read1: sampled(r1)!, read2: sampled(r2), index1: sampled(i1), index2: sampled(i2) };
  const plan: PlacementPlan = {
    design,
    layout: design.layout,
    mismatches: [...mismatches],
    source: 'auto',
    barcodeRead,
  };
  const { plan: chosen, detection } = detectPlacement(
    plan,
    sample,
    options.adapter !== undefined ? { adapter: options.adapter } : {},
  );
  if (detection.refusal || detection.chosen.assigned <= asIs.assigned) return asIs;
  const where: BarcodeCheck['location'] = chosen.source === 'auto' ? location : chosen.source;
  const there = checkAt(lane, chosen.design, mismatches, where, chosen.barcodeRead, {
    ...options,
    ...(chosen.adapter !== undefined ? { adapter: chosen.adapter } : {}),
  });
  return {
    ...there,
    detected: {
      description: detection.chosen.description,
      assigned: detection.chosen.assigned,
      sampled: detection.sampled_reads,
    },
  };
}

/** The check of the lane's first reads with the barcodes read at `location` on `barcodeRead`. */
function checkAt(
  lane: {
    r1: Array<[string, string]>;
    r2: Array<[string, string]> | null;
    i1: Array<[string, string]> | null;
    i2: Array<[string, string]> | null;
  },
  design: BarcodeDesign,
  mismatches: readonly number[],
  location: BarcodeCheck['location'],
  barcodeRead: 1 | 2,
  options: Pick<CheckOptions, 'adapter'>,
): BarcodeCheck {
  const { r1, r2, i1, i2 } = lane;
  const carrier = barcodeRead === 2 && r2 ? r2 : r1;
  const reads: ReadBarcodes[] = r1.map((r, k) => {
    const index = location === 'header' ? headerIndex(r[0]) : null;
    return {
      seq: carrier[k]?.[1] ?? '',
      i7: location === 'index-reads' ? (i1![k]?.[1] ?? null) : (index?.i7 ?? null),
      i5: location === 'index-reads' ? (i2?.[k]?.[1] ?? null) : (index?.i5 ?? null),
    };
  });
  const other = barcodeRead === 2 ? r1 : r2;
  return checkReads(
    reads,
    design,
    mismatches,
    location,
    other?.map((r) => ({ seq: r[1] })),
    { ...options, read2: barcodeRead === 1 && r2 ? r2.map((r) => r[1]) : null },
  );
}

/**
 * The reads as the demultiplexer reads a 3' barcode (null: it cannot be read), in the place that
 * assigns the most reads (the first on ties, in placement detection's order); the reads as they
 * are for a design without a 3' barcode.
 */
function placeThreePrime(
  reads: readonly ReadBarcodes[],
  design: BarcodeDesign,
  mismatches: readonly number[],
  location: BarcodeCheck['location'],
  options: CheckOptions,
): { reads: ReadonlyArray<ReadBarcodes | null>; threePrime: ThreePrimePlacement | null } {
  // No 3' barcode (or not inline): the reads as they are, without looking for an adapter.
  if (location !== 'inline' || threePrimePlacements(design, null, false).length === 0) {
    return { reads, threePrime: null };
  }
  const adapter = options.adapter === undefined ? detectAdapter(reads.map((r) => r.seq)) : options.adapter;
  const places = threePrimePlacements(design, adapter, !!options.read2);
  if (places.length === 0) return { reads, threePrime: null };
  const matcher = makeMatcher(design, mismatches, true);
  let rc: string[] | null = null;
  let best: { reads: Array<ReadBarcodes | null>; threePrime: ThreePrimePlacement; assigned: number } | null = null;
  for (const place of places) {
    if (place.threeOnRead2) rc ??= options.read2!.map(reverseComplement);
    const bytes = adapterBytes(place.adapter);
    let assigned = 0;
    const placed = reads.map((r, k) => {
      const seq = threePrimeText(r.seq, place.threeOnRead2 ? (rc![k] ?? '') : null, bytes);
      if (seq === null) return null;
      const read = { ...r, seq };
      if (matcher.assign(read).sample >= 0) assigned++;
      return read;
    });
    if (!best || assigned > best.assigned) best = { reads: placed, threePrime: place, assigned };
  }
  return { reads: best!.reads, threePrime: best!.threePrime };
}

/** Counts reads per sample and the unknown ones, as the demultiplexer would assign them. */
export function checkReads(
  reads: readonly ReadBarcodes[],
  design: BarcodeDesign,
  mismatches: readonly number[],
  location: BarcodeCheck['location'],
  otherRead?: readonly ReadBarcodes[],
  options: CheckOptions = {},
): BarcodeCheck {
  const placed = placeThreePrime(reads, design, mismatches, location, options);
  const matcher = makeMatcher(design, mismatches, location === 'inline');
  const counts = new Float64Array(design.barcodes.length);
  const mismatched = new Float64Array(design.barcodes.length);
  const unknown = new Map<string, number>();
  const missed: ReadBarcodes[] = [];
  const missedOther: ReadBarcodes[] = [];
  let hopped = 0;
  let readable = 0;
  placed.reads.forEach((read, k) => {
    if (read === null) return;
    readable++;
    const a = matcher.assign(read);
    if (a.sample >= 0) {
      counts[a.sample]!++;
      if (a.mismatches > 0) mismatched[a.sample]!++;
      return;
    }
    if (a.keys.every((key) => key >= 0)) hopped++;
    const seen = matcher.observed(read);
    unknown.set(seen, (unknown.get(seen) ?? 0) + 1);
    missed.push(read);
    if (otherRead?.[k]) missedOther.push(otherRead[k]!);
  });
  const samples = design.barcodes.map((b, i) => ({
    sample: b.sample,
    row: b.row,
    barcode: b.barcode,
    reads: counts[i]!,
    mismatched: mismatched[i]!,
  }));
  const assigned = samples.reduce((n, s) => n + s.reads, 0);
  const undeterminedFraction = readable ? (readable - assigned) / readable : 0;
  return {
    readsScanned: reads.length,
    location,
    samples,
    unknown: [...unknown]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([barcode, n]) => {
        const near = nearestSample(design, barcode);
        return { barcode, reads: n, nearest: near?.sample ?? null, distance: near?.distance ?? null };
      }),
    assigned,
    hopped,
    readable,
    undeterminedFraction,
    threePrime: placed.threePrime,
    detected: null,
    diagnosis:
      undeterminedFraction > MOSTLY_UNDETERMINED
        ? diagnoseUndetermined(
            design,
            mismatches,
            missed,
            location === 'inline',
            missedOther.length ? missedOther : undefined,
          )
        : null,
  };
}
