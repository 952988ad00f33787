/**
 * The fast paths for index designs. Indexes in the read header (`@… 1:N:0:ACGTACGT` or
 * `…:ACGTACGT+TTGGCCAA`, as BCL Convert writes them): one backward scan from the header's end to
 * its last `:`, one pass over the index field that checks its letters and finds the `+`, and
 * each index's bases read straight into its lookup table's code (every variant within the
 * allowed mismatches is in the table, barcode-index.ts). Index reads (I1/I2 files): each index
 * read's sequence line read the same way. They do what the general handler (record-handlers.ts)
 * does for these designs, read for read: the same sample, counts, unknown tallies, hopping and
 * diagnosis, the same copy operations; demux-golden.test.ts holds them to the same bytes.
 * Designs they do not fit (mixed index lengths in one segment) go through the general handler.
 */
import { BASE5, MISMATCH_SHIFT } from './barcode-index';
import type { BarcodeIndex } from './barcode-index';
import {
  DIAGNOSIS_SAMPLE,
  Where,
  codeOfKey,
  copyRecord,
  keepForDiagnosis,
  type RecordHandler,
  type Routing,
} from './record-handlers';
import type { SegmentTable } from './segment-table';

const SPACE = 32;
const COLON = 58;
const PLUS = 43;
const CR = 13;
const KEY_MASK = 0xffff;

/** The one lookup table of a segment whose barcodes are all one run of bases from its start, or null. */
export function plainIndex(seg: SegmentTable): BarcodeIndex | null {
  if (seg.fromEnd || seg.groups.length !== 1) return null;
  const g = seg.groups[0]!;
  return g.run === 0 && g.span === g.pos.length ? g.index : null;
}

/** The fast path for the routing's indexes (read headers or I1/I2 files), or null when its design does not fit it. */
export function makeIndexHandler(route: Routing): RecordHandler | null {
  return makeHeaderHandler(route) ?? makeIndexReadHandler(route);
}

/** The code of `span` bases at b[from...], in base 5. */
function codeAt(b: Buffer, from: number, span: number): number {
  let code = 0;
  for (let k = from; k < from + span; k++) code = code * 5 + (BASE5[b[k]!] as number);
  return code;
}

/**
 * Index reads (I1, and I2 for dual indexes), as the general handler reads them: each index read's
 * sequence line, its first bases looked up; the reads' records copied whole.
 */
function makeIndexReadHandler(route: Routing): RecordHandler | null {
  const { segments, where, pairs, n1, single, counts, oneMismatch, twoMismatches, read1, read2, sink } = route;
  if (route.barcodeRead !== 0 || where[0] !== Where.Index1 || segments.length > 2) return null;
  const seg0 = segments[0]!;
  const seg1 = segments.length === 2 ? segments[1]! : null;
  if (seg1 && where[1] !== Where.Index2) return null;
  const index0 = plainIndex(seg0);
  const index1 = seg1 ? plainIndex(seg1) : null;
  if (!index0 || (seg1 && !index1)) return null;
  const span0 = seg0.groups[0]!.span;
  const span1 = seg1 ? seg1.groups[0]!.span : 0;
  const len1 = seg1 ? seg1.longest : 0;
  const fits = seg0.longest + len1 <= 22;
  const scale = 5 ** len1;
  const unknown = route.unknown;
  const undetermined: RecordHandler = (r1, r2, i1, i2) => {
    route.undetermined++;
    copyRecord(sink, route.undetermined1, r1);
    if (r2) copyRecord(sink, route.undetermined2!, r2);
    if (route.samples.length < DIAGNOSIS_SAMPLE) keepForDiagnosis(route, r1, r2, i1, i2, null);
  };
  return (r1, r2, i1, i2) => {
    let b = i1!.buf;
    let start = i1!.s0;
    let end = i1!.s1;
    if (end > start && b[end - 1] === CR) end--;
    let e0 = 0;
    let c0 = -1;
    if (end - start >= span0) {
      const code = codeAt(b, start, span0);
      const entry = index0.lookup(code);
      if (entry > 0) e0 = entry;
      else c0 = code;
    }
    let e1 = 0;
    if (seg1) {
      b = i2!.buf;
      start = i2!.s0;
      end = i2!.s1;
      if (end > start && b[end - 1] === CR) end--;
      let g1 = -1;
      if (end - start >= span1) {
        const code = codeAt(b, start, span1);
        const entry = index1!.lookup(code);
        if (entry > 0) e1 = entry;
        else g1 = code;
      }
      if (e0 <= 0 || e1 <= 0) {
        if (fits) {
          const a = e0 > 0 ? codeOfKey(seg0, e0) : c0;
          const z = e1 > 0 ? codeOfKey(seg1, e1) : g1;
          if (a >= 0 && z >= 0) unknown.add(a * scale + z);
        }
        return undetermined(r1, r2, i1, i2);
      }
    } else if (e0 <= 0) {
      if (c0 >= 0) unknown.add(c0);
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
    copyRecord(sink, read1[sample]!, r1);
    if (r2) copyRecord(sink, read2![sample]!, r2);
  };
}

/** The header fast path for the routing, or null when its design does not fit it. */
function makeHeaderHandler(route: Routing): RecordHandler | null {
  const { segments, where, pairs, n1, single, counts, oneMismatch, twoMismatches, read1, read2, sink } = route;
  if (route.barcodeRead !== 0 || where[0] !== Where.HeaderI7) return null;
  const two = segments.length === 2;
  if (two && where[1] !== Where.HeaderI5) return null;
  if (segments.length > 2) return null;
  const seg0 = segments[0]!;
  const seg1 = two ? segments[1]! : null;
  const index0 = plainIndex(seg0);
  const index1 = seg1 ? plainIndex(seg1) : null;
  if (!index0 || (seg1 && !index1)) return null;
  const span0 = seg0.groups[0]!.span;
  const span1 = seg1 ? seg1.groups[0]!.span : 0;
  const len1 = seg1 ? seg1.longest : 0;
  const fits = seg0.longest + len1 <= 22;
  const scale = 5 ** len1;
  const field = new Int32Array(3);
  const unknown = route.unknown;

  const undetermined: RecordHandler = (r1, r2, i1, i2) => {
    route.undetermined++;
    copyRecord(sink, route.undetermined1, r1);
    if (r2) copyRecord(sink, route.undetermined2!, r2);
    if (route.samples.length < DIAGNOSIS_SAMPLE) keepForDiagnosis(route, r1, r2, i1, i2, field);
  };

  return (r1, r2, i1, i2) => {
    const b = r1.buf;
    const h0 = r1.h0;
    const h1 = r1.h1;
    let e = h1;
    if (b[e - 1] === CR) e--;
    let c = e - 1;
    while (c > h0) {
      const ch = b[c]!;
      if (ch === COLON || ch === SPACE) break;
      c--;
    }
    // The index field [s7, plus) and (plus, end), or none (all three at the header's end).
    let s7 = h1;
    let plus = h1;
    let end = h1;
    if (b[c] === COLON) {
      let p = e;
      let i = c + 1;
      for (; i < e; i++) {
        const ch = b[i]!;
        if (ch === PLUS) p = i;
        else if (ch < 65 || ch > 90) break; // letters only: not 1:N:0:1 sample numbers
      }
      if (i === e) {
        s7 = c + 1;
        plus = p;
        end = e;
      }
    }
    field[0] = s7;
    field[1] = plus;
    field[2] = end;
    // i7: its first span0 bases, when the field has that many before the '+'.
    let e0 = 0;
    let c0 = -1;
    if (plus - s7 >= span0) {
      let code = 0;
      for (let k = s7; k < s7 + span0; k++) code = code * 5 + (BASE5[b[k]!] as number);
      const entry = index0.lookup(code);
      if (entry > 0) e0 = entry;
      else c0 = code;
    }
    let e1 = 0;
    if (seg1) {
      const s5 = plus < end ? plus + 1 : end;
      let g1 = -1;
      if (end - s5 >= span1) {
        let code = 0;
        for (let k = s5; k < s5 + span1; k++) code = code * 5 + (BASE5[b[k]!] as number);
        const entry = index1!.lookup(code);
        if (entry > 0) e1 = entry;
        else g1 = code;
      }
      if (e0 <= 0 || e1 <= 0) {
        // Tally the unknown pair as both indexes read it.
        if (fits) {
          const a = e0 > 0 ? codeOfKey(seg0, e0) : c0;
          const z = e1 > 0 ? codeOfKey(seg1, e1) : g1;
          if (a >= 0 && z >= 0) unknown.add(a * scale + z);
        }
        return undetermined(r1, r2, i1, i2);
      }
    } else if (e0 <= 0) {
      if (c0 >= 0) unknown.add(c0);
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
    copyRecord(sink, read1[sample]!, r1);
    if (r2) copyRecord(sink, read2![sample]!, r2);
  };
}
