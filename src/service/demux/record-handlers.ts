/**
 * The per-read hot path: find the barcode (inline at the 5' end, or the read header's index
 * field), look it up, and copy the record's bytes into its sample's output. Everything works on
 * byte offsets into the reader's buffer; no string is made per read.
 */
import { BASE5, type BarcodeIndex, type UnknownBarcodes } from './barcode-index';
import type { FastqReader } from './fastq-reader';
import type { FastqWriter } from './fastq-writer';

const SPACE = 32;
const COLON = 58;
const PLUS = 43;
const NL = 10;
const CR = 13;
const UNDERSCORE = 95;
const MISMATCH_FLAG = 0x10000;

/** Where each read goes and what was counted. */
export interface Routing {
  index: BarcodeIndex;
  read1: FastqWriter[];
  read2: FastqWriter[] | null;
  undetermined1: FastqWriter;
  undetermined2: FastqWriter | null;
  counts: Float64Array;
  mismatched: Float64Array;
  unknown: UnknownBarcodes;
  undetermined: number;
}

export type RecordHandler = (r1: FastqReader, r2: FastqReader | null) => void;

/**
 * Copies src[start, end) to dst at pos and returns the byte count. Short spans (read names) are
 * copied in a loop: Buffer#copy makes a typed-array view per call, which costs more than it saves.
 */
function put(src: Buffer, dst: Buffer, pos: number, start: number, end: number): number {
  const n = end - start;
  if (n > 64) return src.copy(dst, pos, start, end);
  for (let i = 0; i < n; i++) dst[pos + i] = src[start + i] as number;
  return n;
}

/** Copies a whole record unchanged. */
function copyRecord(w: FastqWriter, r: FastqReader): void {
  const n = r.q1 + 1 - r.h0;
  w.reserve(n);
  r.buf.copy(w.buf, w.len, r.h0, r.q1 + 1);
  w.len += n;
}

/** End of the read name: the first space of the header, or its end. */
function nameEnd(b: Buffer, h0: number, h1: number): number {
  const sp = b.indexOf(SPACE, h0);
  if (sp >= 0 && sp < h1) return sp;
  return b[h1 - 1] === CR ? h1 - 1 : h1;
}

/**
 * Writes a record with `_UMI` appended to its name (umi_tools' convention) and the first `trim`
 * bases removed; the UMI bytes come from `umiBuf` at `umiStart` (read 1 also for read 2).
 */
function writeTagged(
  w: FastqWriter,
  r: FastqReader,
  trim: number,
  umi: Int32Array,
  umiBuf: Buffer,
  umiStart: number,
): void {
  const b = r.buf;
  w.reserve(r.q1 + 1 - r.h0 + umi.length + 3);
  const o = w.buf;
  let n = w.len;
  if (umi.length > 0) {
    const ne = nameEnd(b, r.h0, r.h1);
    n += put(b, o, n, r.h0, ne);
    o[n++] = UNDERSCORE;
    for (let k = 0; k < umi.length; k++) o[n++] = umiBuf[umiStart + (umi[k] as number)] as number;
    n += put(b, o, n, ne, r.h1 + 1);
  } else {
    n += put(b, o, n, r.h0, r.h1 + 1);
  }
  if (trim === 0) {
    n += b.copy(o, n, r.s0, r.q1 + 1);
  } else {
    n += b.copy(o, n, r.s0 + trim, r.s1 + 1);
    o[n++] = PLUS;
    o[n++] = NL;
    n += b.copy(o, n, r.q0 + trim, r.q1 + 1);
  }
  w.len = n;
}

function undetermined(route: Routing, r1: FastqReader, r2: FastqReader | null): void {
  route.undetermined++;
  copyRecord(route.undetermined1, r1);
  if (r2) copyRecord(route.undetermined2!, r2);
}

/** Inline barcodes: positions of a layout at the 5' end; barcode and UMI are trimmed. */
export function inlineHandler(route: Routing, layout: string): RecordHandler {
  const length = layout.length;
  const bpos = Int32Array.from([...layout].flatMap((c, i) => (c === 'X' ? [i] : [])));
  const umi = Int32Array.from([...layout].flatMap((c, i) => (c === 'N' ? [i] : [])));
  const { index, counts, mismatched, unknown, read1, read2 } = route;
  return (r1, r2) => {
    const b = r1.buf;
    const s0 = r1.s0;
    if (r1.s1 - s0 < length) return undetermined(route, r1, r2);
    let code = 0;
    for (let k = 0; k < bpos.length; k++) code = code * 5 + (BASE5[b[s0 + (bpos[k] as number)] as number] as number);
    const entry = index.lookup(code);
    if (entry <= 0) {
      unknown.add(code);
      return undetermined(route, r1, r2);
    }
    const sample = (entry & 0xffff) - 1;
    counts[sample]!++;
    if (entry & MISMATCH_FLAG) mismatched[sample]!++;
    writeTagged(read1[sample]!, r1, length, umi, b, s0);
    if (r2) writeTagged(read2![sample]!, r2, 0, umi, b, s0);
  };
}

/**
 * The index field of an Illumina header (`@name 1:N:0:ACGTACGT` or `...:ACGT+TTGA`): its base-5
 * code when it has the expected shape, else -1. `i7Length` is set for dual indexes.
 */
export function headerIndexCode(r: FastqReader, length: number, i7Length: number): number {
  const b = r.buf;
  let e = r.h1;
  if (b[e - 1] === CR) e--;
  let c = e - 1;
  while (c > r.h0 && b[c] !== COLON && b[c] !== SPACE) c--;
  if (b[c] !== COLON) return -1;
  let code = 0;
  let bases = 0;
  let atPlus = -1;
  for (let i = c + 1; i < e; i++) {
    const ch = b[i] as number;
    if (ch === PLUS) {
      if (i7Length === 0) break; // a single-index sheet matches the first index of a dual read
      atPlus = bases;
      continue;
    }
    code = code * 5 + (BASE5[ch] as number);
    bases++;
  }
  if (bases !== length || (i7Length > 0 && atPlus !== i7Length)) return -1;
  return code;
}

/** Header indexes: reads are written unchanged. */
export function headerHandler(route: Routing, length: number, i7Length: number): RecordHandler {
  const { index, counts, mismatched, unknown, read1, read2 } = route;
  return (r1, r2) => {
    const code = headerIndexCode(r1, length, i7Length);
    const entry = code < 0 ? 0 : index.lookup(code);
    if (entry <= 0) {
      if (code >= 0) unknown.add(code);
      return undetermined(route, r1, r2);
    }
    const sample = (entry & 0xffff) - 1;
    counts[sample]!++;
    if (entry & MISMATCH_FLAG) mismatched[sample]!++;
    copyRecord(read1[sample]!, r1);
    if (r2) copyRecord(read2![sample]!, r2);
  };
}

/** True when two mates carry the same read name (ignoring a /1, /2 suffix). */
export function sameReadName(a: FastqReader, b: FastqReader): boolean {
  let ea = nameEnd(a.buf, a.h0, a.h1);
  let eb = nameEnd(b.buf, b.h0, b.h1);
  if (ea - a.h0 > 2 && a.buf[ea - 2] === 47) ea -= 2;
  if (eb - b.h0 > 2 && b.buf[eb - 2] === 47) eb -= 2;
  return a.buf.compare(b.buf, b.h0, eb, a.h0, ea) === 0;
}
