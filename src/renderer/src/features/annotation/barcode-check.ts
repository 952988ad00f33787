/**
 * Checks the sheet's barcodes against the first reads of the multiplexed FASTQ, in the
 * browser, before anything is uploaded: reads per expected barcode, the most frequent unknown
 * barcodes, and whether the reads carry the reverse complements (a classic i5 orientation
 * mix-up). Barcodes come from the read header (`... 1:N:0:ACGTACGT+TTGATTGA`) or, for an
 * inline layout, from the read's first bases.
 */
import { parseLayout, reverseComplement, type BarcodeDesign } from '../../../../shared/annotation';

export interface SampleCount {
  sample: string;
  row: number;
  barcode: string;
  reads: number;
  /** Reads carrying the reverse complement (for dual indexes: of the i5 part). */
  reverseComplementReads: number;
}

export interface BarcodeCheck {
  readsScanned: number;
  samples: SampleCount[];
  unknown: Array<{ barcode: string; reads: number }>;
  assigned: number;
  reverseComplementSuspected: boolean;
}

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
      reads.push([lines[i]!, lines[i + 1]!.trim()]);
    }
    text = lines.slice(i).join('\n');
    if (done) break;
  }
  await reader.cancel().catch(() => {});
  return reads;
}

function observed(read: [string, string], design: BarcodeDesign): string | null {
  if (design.layout) {
    const layout = parseLayout(design.layout);
    if (!layout) return null;
    return layout.barcodePositions.map((p) => read[1][p] ?? '').join('');
  }
  const comment = read[0].split(/\s+/)[1] ?? '';
  const index = comment.split(':').pop() ?? '';
  return /^[ACGTN+]+$/.test(index) ? index : null;
}

function flip(barcode: string, dual: boolean): string {
  if (!dual) return reverseComplement(barcode);
  const [i7, i5] = barcode.split('+');
  return `${i7}+${reverseComplement(i5 ?? '')}`;
}

/** Counts the reads per expected barcode (exact matches) and the unknown ones. */
export function checkBarcodes(reads: Array<[string, string]>, design: BarcodeDesign): BarcodeCheck {
  const counts = new Map<string, number>();
  for (const r of reads) {
    const b = observed(r, design);
    if (b) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  const expected = new Set(design.barcodes.map((b) => b.barcode));
  const samples = design.barcodes.map((b) => ({
    sample: b.sample,
    row: b.row,
    barcode: b.barcode,
    reads: counts.get(b.barcode) ?? 0,
    reverseComplementReads: counts.get(flip(b.barcode, design.dual)) ?? 0,
  }));
  const assigned = samples.reduce((n, s) => n + s.reads, 0);
  const flipped = samples.reduce((n, s) => n + s.reverseComplementReads, 0);
  const unknown = [...counts]
    .filter(([b]) => !expected.has(b))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([barcode, n]) => ({ barcode, reads: n }));
  return {
    readsScanned: reads.length,
    samples,
    unknown,
    assigned,
    reverseComplementSuspected: flipped > assigned && flipped > 0,
  };
}
