/**
 * Checks the sheet's barcodes against the first reads of the lane, in the browser, before
 * anything is uploaded, with the lane's layout and mismatches and the service's matching rule
 * (src/shared/annotation/matcher): reads per sample, the most frequent unknown barcodes with
 * their nearest sample, index hopping, and when most reads would be undetermined, the usual
 * cause that fits (a reverse-complemented i5, a wrong layout, the barcode on the other read).
 */
import {
  diagnoseUndetermined,
  makeMatcher,
  nearestSample,
  type BarcodeDesign,
  type Diagnosis,
  type ReadBarcodes,
} from '../../../../shared/annotation';
import { headerIndex } from '../../../../shared/read-names';

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
  undeterminedFraction: number;
  diagnosis: Diagnosis | null;
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
  let stream = file.stream() as ReadableStream<BufferSource>;
  if (head[0] === 0x1f && head[1] === 0x8b)
    stream = stream.pipeThrough(new DecompressionStream('gzip') as ReadableWritablePair<BufferSource, BufferSource>);
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

/** Reads the lane's first reads and checks them against the design. */
export async function runBarcodeCheck(
  files: CheckFiles,
  design: BarcodeDesign,
  mismatches: readonly number[],
  barcodeRead: 1 | 2,
  limit = CHECK_READS,
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
  );
}

/** Counts reads per sample and the unknown ones, as the demultiplexer would assign them. */
export function checkReads(
  reads: readonly ReadBarcodes[],
  design: BarcodeDesign,
  mismatches: readonly number[],
  location: BarcodeCheck['location'],
  otherRead?: readonly ReadBarcodes[],
): BarcodeCheck {
  const matcher = makeMatcher(design, mismatches, location === 'inline');
  const counts = new Float64Array(design.barcodes.length);
  const mismatched = new Float64Array(design.barcodes.length);
  const unknown = new Map<string, number>();
  const missed: ReadBarcodes[] = [];
  const missedOther: ReadBarcodes[] = [];
  let hopped = 0;
  reads.forEach((read, k) => {
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
  const undeterminedFraction = reads.length ? (reads.length - assigned) / reads.length : 0;
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
    undeterminedFraction,
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
