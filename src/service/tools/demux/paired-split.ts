/**
 * Output of paired 5'+3' records (Ultraplex -i2's design): the 5' barcode at read 1's start, the
 * 3' barcode at read 2's start, and, where the fragment is shorter than the reads, both mates cut
 * to the insert. Byte offsets and copy operations only, as in record-handlers.ts: nothing
 * allocated per read.
 */
import { adapterStart } from '../../../shared/demux/adapter';
import type { FastqReader } from './fastq-reader';
import type { OutputSink } from './output-sink';
import { nameEnd } from './record-name';
import type { SegmentTable } from './segment-table';

const NL = 10;
const CR = 13;
const UNDERSCORE = 95;

const COMPLEMENT = new Uint8Array(256).fill(78);
COMPLEMENT[65] = 84;
COMPLEMENT[67] = 71;
COMPLEMENT[71] = 67;
COMPLEMENT[84] = 65;

/**
 * Writes both mates of a paired 5'+3' record: the 5' barcode cut from read 1's start, the 3' one
 * from read 2's start, and `_UMI` on both names: the 5' UMI, then the 3' UMI reverse-complemented
 * back to read 1's strand (as Ultraplex reads it from read 2 reverse-complemented). Where read 1
 * shows `adapter` (3 or more bases, cutadapt's rule as in adapter.ts), the fragment (5' barcode,
 * insert, 3' barcode) is shorter than the reads, so its length is known: read 1 is cut before
 * the 3' barcode and read 2, the fragment's other strand, before the 5' barcode, which drops both
 * adapters, as Ultraplex's `remove_mate_adapter` does.
 */
export function writeSplit(
  sink: OutputSink,
  file1: number,
  file2: number,
  r1: FastqReader,
  r2: FastqReader,
  seg0: SegmentTable,
  seg1: SegmentTable,
  adapter: Uint8Array | null,
): void {
  const g0 = seg0.groups[seg0.group]!;
  const g1 = seg1.groups[seg1.group]!;
  let keep1 = -1;
  let keep2 = -1;
  if (adapter) {
    let e = r1.s1;
    if (e > r1.s0 && r1.buf[e - 1] === CR) e--;
    const cut = adapterStart(r1.buf, r1.s0, e, adapter);
    if (cut < e && mateEndsAt(r1, r2, cut - r1.s0, g0.span)) {
      const fragment = cut - r1.s0;
      keep1 = Math.max(0, fragment - g0.span - g1.span);
      keep2 = keep1;
    }
  }
  writeMate(sink, file1, r1, g0.span, keep1, r1, r2, g0.umi, g1.umi);
  writeMate(sink, file2, r2, g1.span, keep2, r1, r2, g0.umi, g1.umi);
}

/**
 * True when read 2 ends its copy of the fragment at `fragment` bases: its bases before that are
 * read 1's first `span5` (the 5' barcode as read) reverse-complemented, with at most 10% of them
 * different (a sequencing error). An adapter read 1 seems to show by chance at the end of a long
 * insert (`AGA`, say) is not confirmed, and neither mate is cut. Bases past read 2's end are not
 * compared.
 */
function mateEndsAt(r1: FastqReader, r2: FastqReader, fragment: number, span5: number): boolean {
  const b1 = r1.buf;
  const b2 = r2.buf;
  const len2 = r2.s1 - r2.s0;
  let errors = Math.floor(span5 / 10);
  for (let j = 0; j < span5; j++) {
    const p = fragment - 1 - j;
    if (p < 0 || p >= len2) continue;
    if (b2[r2.s0 + p] !== COMPLEMENT[b1[r1.s0 + j]!] && --errors < 0) return false;
  }
  return true;
}

/** One mate of writeSplit: `trim` bases cut from its start, then `keep` bases kept (-1: all). */
function writeMate(
  sink: OutputSink,
  file: number,
  r: FastqReader,
  trim: number,
  keep: number,
  r1: FastqReader,
  r2: FastqReader,
  u0: Int32Array,
  u1: Int32Array,
): void {
  sink.reserve(file, r.q1 + 1 - r.h0 + u0.length + u1.length + 3);
  if (u0.length + u1.length > 0) {
    const ne = nameEnd(r.buf, r.h0, r.h1);
    sink.copy(file, r.chunkId, r.h0, ne);
    sink.byte(file, UNDERSCORE);
    for (let k = 0; k < u0.length; k++) sink.copy(file, r1.chunkId, r1.s0 + u0[k]!, r1.s0 + u0[k]! + 1);
    for (let k = u1.length - 1; k >= 0; k--) sink.byte(file, COMPLEMENT[r2.buf[r2.s0 + u1[k]!]!]!);
    sink.copy(file, r.chunkId, ne, r.h1 + 1);
  } else sink.copy(file, r.chunkId, r.h0, r.h1 + 1);
  let len = Math.max(0, r.s1 - r.s0 - trim);
  if (keep >= 0 && keep < len) len = keep;
  sink.copy(file, r.chunkId, r.s0 + trim, r.s0 + trim + len);
  sink.plusLine(file);
  sink.copy(file, r.chunkId, r.q0 + trim, r.q0 + trim + len);
  sink.byte(file, NL);
}
