/**
 * The per-read hot path: find each segment's barcode (in a read's sequence at its 5' or 3' end,
 * in the read header's index field, or in an index read), look it up, and describe the record's
 * output (its sample's file, with the barcode and UMI trimmed and the UMI in the read name) as
 * copy operations on the input chunks, which the output thread executes. Everything works on
 * byte offsets into the readers' buffers; no string is made and no byte copied per read here.
 */
import { reverseComplement } from '../../../shared/annotation/barcodes';
import { adapterStart } from '../../../shared/demux/adapter';
import { MISMATCH_SHIFT, UnknownBarcodes } from './barcode-index';
import type { FastqReader } from './fastq-reader';
import type { OutputSink } from './output-sink';
import { writeSplit } from './paired-split';
import { nameEnd } from './record-name';
import type { SegmentTable } from './segment-table';

const SPACE = 32;
const COLON = 58;
const PLUS = 43;
const NL = 10;
const CR = 13;
const UNDERSCORE = 95;
const KEY_MASK = 0xffff;

/** Where a segment's barcode is read. */
export const enum Where {
  Read1 = 0,
  Read2 = 1,
  HeaderI7 = 2,
  HeaderI5 = 3,
  Index1 = 4,
  Index2 = 5,
}

/** Where each read goes and what was counted. */
export interface Routing {
  segments: SegmentTable[];
  where: Where[];
  /** Two segments: keys (k0 * n1 + k1) -> sample, -1 for a pair that is no sample. */
  pairs: Int32Array | null;
  n1: number;
  /** One segment: key -> sample. */
  single: Int32Array | null;
  /** The read whose sequence carries inline barcodes (trimmed), or 0 for index designs. */
  barcodeRead: 0 | 1 | 2;
  /** Inline barcodes end where this adapter starts (3' barcodes right before it), cut with it. */
  adapter: Uint8Array | null;
  /** Paired 5'+3' lanes: read 1's adapter, where the mates are cut to a short insert (writeSplit). */
  mateAdapter: Uint8Array | null;
  /** Output files (the sink's file numbers) per sample, and of the undetermined reads. */
  read1: number[];
  read2: number[] | null;
  undetermined1: number;
  undetermined2: number | null;
  sink: OutputSink;
  counts: Float64Array;
  oneMismatch: Float64Array;
  twoMismatches: Float64Array;
  unknown: UnknownBarcodes;
  /** Reads whose segments all matched but whose pair is no sample (index hopping for dual indexes). */
  hops: Map<number, number>;
  hopped: number;
  undetermined: number;
  /** Undetermined reads kept for explaining them (their barcode read's first bases and index fields). */
  samples: Array<{ seq: string; i7: string | null; i5: string | null }>;
}

export type RecordHandler = (
  r1: FastqReader,
  r2: FastqReader | null,
  i1: FastqReader | null,
  i2: FastqReader | null,
) => void;

/** Undetermined reads kept for the diagnosis. */
export const DIAGNOSIS_SAMPLE = 2000;

/** Copies a whole record unchanged. */
export function copyRecord(sink: OutputSink, file: number, r: FastqReader): void {
  sink.copy(file, r.chunkId, r.h0, r.q1 + 1);
}

/**
 * Writes a record with `_UMI` appended to its name (umi_tools' convention) and `trim5`/`trim3`
 * bases removed from its ends. The UMI is `umiLength` bases of chunk `umiChunk` at `umi`.
 */
function writeTagged(
  sink: OutputSink,
  file: number,
  r: FastqReader,
  trim5: number,
  trim3: number,
  umiChunk: number,
  umi: Int32Array,
  umiLength: number,
): void {
  const c = r.chunkId;
  // The worst case as one reservation, so a record never spans two output blocks.
  sink.reserve(file, r.q1 + 1 - r.h0 + umiLength + 3);
  if (umiLength > 0) {
    const ne = nameEnd(r.buf, r.h0, r.h1);
    sink.copy(file, c, r.h0, ne);
    sink.byte(file, UNDERSCORE);
    // Runs of adjacent UMI positions as one span each.
    for (let k = 0; k < umiLength;) {
      const from = umi[k]!;
      let to = from + 1;
      while (++k < umiLength && umi[k] === to) to++;
      sink.copy(file, umiChunk, from, to);
    }
    sink.copy(file, c, ne, r.h1 + 1);
  } else {
    sink.copy(file, c, r.h0, r.h1 + 1);
  }
  if (trim5 === 0 && trim3 === 0) {
    sink.copy(file, c, r.s0, r.q1 + 1);
  } else {
    // A read shorter than its barcodes becomes an empty read, never a negative span.
    const len = Math.max(0, r.s1 - r.s0 - trim5 - trim3);
    sink.copy(file, c, r.s0 + trim5, r.s0 + trim5 + len);
    sink.plusLine(file);
    sink.copy(file, c, r.q0 + trim5, r.q0 + trim5 + len);
    sink.byte(file, NL);
  }
}

/**
 * The index field of an Illumina header (`@name 1:N:0:ACGTACGT` or `...:ACGT+TTGA`): sets
 * field[0..3] to [start, plus or end, end] and returns true, or false when the header has none.
 */
export function headerIndexField(r: FastqReader, field: Int32Array): boolean {
  const b = r.buf;
  let e = r.h1;
  if (b[e - 1] === CR) e--;
  let c = e - 1;
  while (c > r.h0 && b[c] !== COLON && b[c] !== SPACE) c--;
  if (b[c] !== COLON) return false;
  let plus = e;
  for (let i = c + 1; i < e; i++) {
    const ch = b[i] as number;
    if (ch === PLUS) {
      plus = i;
      continue;
    }
    if (ch < 65 || ch > 90) return false; // letters only: not 1:N:0:1 sample numbers
  }
  field[0] = c + 1;
  field[1] = plus;
  field[2] = e;
  return true;
}

/** The handler for a routing: every design goes through this one path. */
export function makeHandler(route: Routing): RecordHandler {
  const { segments, where, pairs, n1, single, counts, oneMismatch, twoMismatches, read1, read2, sink } = route;
  const two = segments.length === 2;
  const seg0 = segments[0]!;
  const seg1 = two ? segments[1]! : null;
  const where0 = where[0]!;
  const where1 = two ? where[1]! : Where.Read1;
  const needsHeader = where.includes(Where.HeaderI7) || where.includes(Where.HeaderI5);
  const field = new Int32Array(3);
  // Positions of the UMI bases in the barcode read's chunk.
  const umi = new Int32Array(64);
  const barcodeRead = route.barcodeRead;
  const adapter = barcodeRead === 0 ? null : route.adapter;
  // With an adapter: where it starts in the barcode read (its end when the read has none).
  let cut = 0;
  // The read shows no adapter: its insert may run on past the read, so a 3' barcode cannot be
  // read (Ultraplex reads one only after cutting 3 or more adapter bases, its --min_trim).
  let noAdapter = false;
  const len1 = seg1 ? seg1.longest : 0;
  const fits = seg0.longest + len1 <= 22;
  const scale = 5 ** len1;
  // Paired 5'+3' (Ultraplex -i2): the 5' barcode at read 1's start, the 3' one at read 2's start.
  const split = barcodeRead === 1 && where0 === Where.Read1 && where1 === Where.Read2 && seg1 !== null;
  // Span of the current segment's text, set by locate().
  let buf: Buffer = Buffer.alloc(0);
  let start = 0;
  let end = 0;

  const locate = (
    w: Where,
    r1: FastqReader,
    r2: FastqReader | null,
    i1: FastqReader | null,
    i2: FastqReader | null,
  ) => {
    switch (w) {
      case Where.Read1:
        buf = r1.buf;
        start = r1.s0;
        end = r1.s1;
        break;
      case Where.Read2:
        buf = r2!.buf;
        start = r2!.s0;
        end = r2!.s1;
        break;
      case Where.HeaderI7:
        buf = r1.buf;
        start = field[0]!;
        end = field[1]!;
        break;
      case Where.HeaderI5:
        buf = r1.buf;
        start = field[1]! < field[2]! ? field[1]! + 1 : field[2]!;
        end = field[2]!;
        break;
      case Where.Index1:
        buf = i1!.buf;
        start = i1!.s0;
        end = i1!.s1;
        break;
      default:
        buf = i2!.buf;
        start = i2!.s0;
        end = i2!.s1;
    }
    if (end > start && buf[end - 1] === CR) end--;
    if (adapter && (w === Where.Read1 || w === Where.Read2)) end = cut;
  };

  const undetermined = (r1: FastqReader, r2: FastqReader | null, i1: FastqReader | null, i2: FastqReader | null) => {
    route.undetermined++;
    copyRecord(sink, route.undetermined1, r1);
    if (r2) copyRecord(sink, route.undetermined2!, r2);
    if (route.samples.length < DIAGNOSIS_SAMPLE) keepForDiagnosis(route, r1, r2, i1, i2, needsHeader ? field : null);
  };

  return (r1, r2, i1, i2) => {
    if (needsHeader && !headerIndexField(r1, field)) {
      field[0] = field[1] = field[2] = r1.h1;
    }
    if (adapter) {
      const br = barcodeRead === 2 ? r2! : r1;
      let e = br.s1;
      if (e > br.s0 && br.buf[e - 1] === CR) e--;
      cut = adapterStart(br.buf, br.s0, e, adapter);
      noAdapter = cut === e;
    }
    locate(where0, r1, r2, i1, i2);
    if (noAdapter && seg0.fromEnd) end = start;
    const e0 = seg0.match(buf, start, end);
    let e1 = 0;
    if (seg1) {
      const c0 = e0 > 0 ? -1 : seg0.unknownCode;
      locate(where1, r1, r2, i1, i2);
      if (noAdapter && seg1.fromEnd) end = start;
      e1 = seg1.match(buf, start, end);
      const g1code = seg1.unknownCode;
      if (e0 <= 0 || e1 <= 0) {
        // Tally the unknown pair as both longest layouts read it.
        if (fits) {
          const a = e0 > 0 ? codeOfKey(seg0, e0) : c0;
          const b = e1 > 0 ? codeOfKey(seg1, e1) : g1code;
          if (a >= 0 && b >= 0) route.unknown.add(a * scale + b);
        }
        return undetermined(r1, r2, i1, i2);
      }
    } else if (e0 <= 0) {
      if (seg0.unknownCode >= 0) route.unknown.add(seg0.unknownCode);
      return undetermined(r1, r2, i1, i2);
    }
    const k0 = (e0 & KEY_MASK) - 1;
    let sample: number;
    if (pairs) {
      const pair = k0 * n1 + ((e1 & KEY_MASK) - 1);
      sample = pairs[pair]!;
      if (sample < 0) {
        route.hopped++;
        route.hops.set(pair, (route.hops.get(pair) ?? 0) + 1);
        return undetermined(r1, r2, i1, i2);
      }
    } else sample = single![k0]!;
    counts[sample]!++;
    const mm = (e0 >>> MISMATCH_SHIFT) + (e1 > 0 ? e1 >>> MISMATCH_SHIFT : 0);
    if (mm === 1) oneMismatch[sample]!++;
    else if (mm > 1) twoMismatches[sample]!++;
    if (barcodeRead === 0) {
      copyRecord(sink, read1[sample]!, r1);
      if (r2) copyRecord(sink, read2![sample]!, r2);
      return;
    }
    if (split) return writeSplit(sink, read1[sample]!, read2![sample]!, r1, r2!, seg0, seg1!, route.mateAdapter);
    // Inline: trim the barcode read's ends and carry the UMI (5' then 3' positions) to both mates.
    const br = barcodeRead === 1 ? r1 : r2!;
    let trim5 = 0;
    let trim3 = 0;
    let u = 0;
    // The 3' barcode ends at the read's end, or where the adapter starts (the adapter goes too).
    const tail = adapter ? cut : br.s1;
    for (let s = 0; s < segments.length; s++) {
      const seg = segments[s]!;
      const group = seg.groups[seg.group]!;
      const at = seg.fromEnd ? tail - group.span : br.s0;
      if (seg.fromEnd) trim3 = br.s1 - tail + group.span;
      else trim5 = group.span;
      const up = group.umi;
      for (let k = 0; k < up.length && u < 64; k++) umi[u++] = at + up[k]!;
    }
    const uc = br.chunkId;
    if (barcodeRead === 1) {
      writeTagged(sink, read1[sample]!, r1, trim5, trim3, uc, umi, u);
      if (r2) writeTagged(sink, read2![sample]!, r2, 0, 0, uc, umi, u);
    } else {
      writeTagged(sink, read1[sample]!, r1, 0, 0, uc, umi, u);
      writeTagged(sink, read2![sample]!, r2!, trim5, trim3, uc, umi, u);
    }
  };
}

/** The code of a matched key's barcode on the segment's longest layout (exact bases). */
export function codeOfKey(seg: SegmentTable, entry: number): number {
  const part = seg.keys[(entry & KEY_MASK) - 1]!;
  let code = 0;
  for (let i = 0; i < seg.longest; i++) {
    const c = part.bases.charCodeAt(i);
    code = code * 5 + (c === 65 ? 0 : c === 67 ? 1 : c === 71 ? 2 : c === 84 ? 3 : 4);
  }
  return code;
}

export function keepForDiagnosis(
  route: Routing,
  r1: FastqReader,
  r2: FastqReader | null,
  i1: FastqReader | null,
  i2: FastqReader | null,
  field: Int32Array | null,
): void {
  const br = route.barcodeRead === 2 && r2 ? r2 : r1;
  let seq = br.buf.toString('latin1', br.s0, br.s1).replace(/\r$/, '');
  // Paired 5'+3': read 2 reverse-complemented after read 1, where the matcher reads a 3' barcode.
  if (r2 && route.barcodeRead === 1 && route.where[1] === Where.Read2) {
    seq += reverseComplement(r2.buf.toString('latin1', r2.s0, r2.s1).replace(/\r$/, ''));
  }
  let i7: string | null = null;
  let i5: string | null = null;
  if (field && field[0]! < field[2]!) {
    i7 = r1.buf.toString('latin1', field[0]!, field[1]!);
    i5 = field[1]! < field[2]! ? r1.buf.toString('latin1', field[1]! + 1, field[2]!) : null;
  }
  if (i1) i7 = i1.buf.toString('latin1', i1.s0, i1.s1).replace(/\r$/, '');
  if (i2) i5 = i2.buf.toString('latin1', i2.s0, i2.s1).replace(/\r$/, '');
  route.samples.push({ seq, i7, i5 });
}

/** True when two mates carry the same read name (ignoring a /1, /2 suffix). */
export function sameReadName(a: FastqReader, b: FastqReader): boolean {
  let ea = nameEnd(a.buf, a.h0, a.h1);
  let eb = nameEnd(b.buf, b.h0, b.h1);
  if (ea - a.h0 > 2 && a.buf[ea - 2] === 47) ea -= 2;
  if (eb - b.h0 > 2 && b.buf[eb - 2] === 47) eb -= 2;
  return a.buf.compare(b.buf, b.h0, eb, a.h0, ea) === 0;
}

export { UnknownBarcodes };
