/**
 * Scoring a placement on the lane's first reads, quickly: the rule of the shared string matcher
 * (makeMatcher in shared/annotation/matcher.ts: a segment is assigned when exactly one of its
 * barcodes is within its mismatches, an N always a mismatch, reads too short for a layout
 * skipped) without making a string per read and barcode, and leaving a barcode at its first
 * mismatch too many. Placement detection scores some ten placements on 4,000 reads against
 * every sample's barcode, which cost more than demultiplexing a small lane. Index placements
 * read only the index fields, which repeat from read to read: each pair is judged once.
 * placement-score.test.ts holds it to the matcher's answers.
 */
import { segmentParts, type ReadBarcodes } from '../annotation/matcher';
import type { BarcodeDesign } from '../annotation/design';

const N = 78;
/** A read's character as a digit: A, C, G, T 0 to 3; anything else 4 (never equal to a barcode base). */
const DIGIT = new Uint8Array(65536).fill(4);
DIGIT[65] = 0;
DIGIT[67] = 1;
DIGIT[71] = 2;
DIGIT[84] = 3;
/**
 * Tables indexed by code up to this many barcode bases (5^6 entries); a Map beyond: a sheet's
 * barcodes and their neighbours are some hundreds of codes, and a direct table of 5^8 codes
 * (1.5 MB of fresh pages, each faulted in) cost more to build than detection's lookups saved.
 */
const DIRECT_MAX = 6;
const AMBIGUOUS = -1;

/**
 * When every barcode of a segment has the same layout and only A, C, G, T: a table of every
 * read that the matcher's rule gives a key, code -> key + 1, or -1 when two barcodes are within
 * the mismatches. Reads are coded with anything but A, C, G, T as a fifth letter, which differs
 * from every base, as the matcher's comparison (an N always a mismatch) says.
 */
function keyTable(rules: PartRule[], m: number): ((code: number) => number) | null {
  const first = rules[0]!;
  if (rules.some((r) => r.length !== first.length || r.at.join() !== first.at.join())) return null;
  if (rules.some((r) => r.codes.some((c) => DIGIT[c] === 4 || Number.isNaN(c)))) return null;
  const n = first.at.length;
  if (n > 22) return null;
  const direct = n <= DIRECT_MAX ? new Int32Array(5 ** n) : null;
  const map = direct ? null : new Map<number, number>();
  const put = (code: number, key: number) => {
    const old = direct ? direct[code]! : (map!.get(code) ?? 0);
    const next = old === 0 ? key + 1 : AMBIGUOUS;
    if (direct) direct[code] = next;
    else map!.set(code, next);
  };
  const weights = Array.from({ length: n }, (_, i) => 5 ** (n - 1 - i));
  rules.forEach((r, key) => {
    const digits = r.codes.map((c) => DIGIT[c]!);
    const base = digits.reduce((code, d) => code * 5 + d, 0);
    // Every code within m changes of the barcode, each counted once.
    const walk = (code: number, from: number, left: number) => {
      put(code, key);
      if (left === 0) return;
      for (let i = from; i < n; i++) {
        for (let d = 0; d < 5; d++) {
          if (d !== digits[i]) walk(code + (d - digits[i]!) * weights[i]!, i + 1, left - 1);
        }
      }
    };
    walk(base, 0, Math.min(m, n));
  });
  return direct ? (code) => direct[code]! : (code) => map!.get(code) ?? 0;
}

interface PartRule {
  length: number;
  /** Positions of the barcode's bases in the layout. */
  at: Int32Array;
  /** The barcode's character codes (NaN past its end, never equal to a read's). */
  codes: number[];
}

/** Where a segment's text comes from, as the matcher's textOf reads it. */
const enum Text {
  Seq = 0,
  SeqFromEnd = 1,
  I7 = 2,
  I5 = 3,
}

/** The sample a read is assigned to (index into design.barcodes), or -1, as makeMatcher's assign says. */
export type SampleAssigner = ((read: ReadBarcodes) => number) & {
  /** True when only the index fields decide (the same i7 and i5 always give the same answer). */
  indexOnly: boolean;
  /**
   * For one inline segment read through a code table: how many of the first `n` reads' bases
   * (`reads[k].seq`, '' past the end) the assigner gives a sample, without a call per read.
   */
  countSeqs?: (reads: ReadonlyArray<{ seq: string }>, n: number) => number;
};

/**
 * Key tables by barcodes and mismatches, shared by the placements of one detection (they move
 * the same barcodes); null: judge each read barcode by barcode.
 */
export type KeyTables = Map<string, ((code: number) => number) | null>;

export function sampleAssigner(
  design: BarcodeDesign,
  mismatches: readonly number[],
  inline: boolean,
  cache: KeyTables | null = new Map(),
): SampleAssigner {
  const parts = segmentParts(design);
  const rules: PartRule[][] = parts.map((ps) =>
    ps.map((p) => {
      const at: number[] = [];
      for (let i = 0; i < p.layout.length; i++) if (p.layout[i] === 'X') at.push(i);
      return { length: p.layout.length, at: Int32Array.from(at), codes: at.map((_, k) => p.bases.charCodeAt(k)) };
    }),
  );
  const texts = design.segments.map((segment) => {
    if (segment === "3'") return Text.SeqFromEnd;
    if (segment === "5'" || design.kind === 'inline' || (design.kind === 'plain' && inline)) return Text.Seq;
    return segment === 'i5' ? Text.I5 : Text.I7;
  });
  const allowed = parts.map((_, s) => mismatches[s] ?? mismatches[0] ?? 0);
  // Keys (each segment's part) to sample; a later barcode with the same keys wins, as in the matcher.
  const n1 = parts[1]?.length ?? 1;
  const sampleOf = new Int32Array(parts[0]!.length * n1).fill(-1);
  design.barcodes.forEach((b, i) => {
    const k = b.parts.map((p, s) => parts[s]!.findIndex((q) => q.layout === p.layout && q.bases === p.bases));
    sampleOf[k[0]! * n1 + (k[1] ?? 0)] = i;
  });

  // Without a cache (a handful of reads to judge) no table is worth building.
  const tables = rules.map((rs, s) => {
    if (!cache) return null;
    // The table depends on the barcodes' bases and the mismatches only, not on where they sit.
    const key = `${allowed[s]}:${parts[s]!.map((p) => p.bases).join(',')}`;
    let table = cache.get(key);
    if (table === undefined) cache.set(key, (table = keyTable(rs, allowed[s]!)));
    return table;
  });
  const keyIn = (s: number, text: string, fromEnd: boolean): number => {
    const m = allowed[s]!;
    const rs = rules[s]!;
    const table = tables[s];
    if (table) {
      const r = rs[0]!;
      if (text.length < r.length) return -1;
      const start = fromEnd ? text.length - r.length : 0;
      const at = r.at;
      let code = 0;
      for (let j = 0; j < at.length; j++) code = code * 5 + DIGIT[text.charCodeAt(start + at[j]!)]!;
      const entry = table(code);
      return entry > 0 ? entry - 1 : entry === AMBIGUOUS ? -2 : -1;
    }
    let found = -1;
    for (let k = 0; k < rs.length; k++) {
      const r = rs[k]!;
      if (text.length < r.length) continue;
      const start = fromEnd ? text.length - r.length : 0;
      const at = r.at;
      const codes = r.codes;
      let d = 0;
      for (let j = 0; j < at.length; j++) {
        const ch = text.charCodeAt(start + at[j]!);
        if ((ch !== codes[j] || ch === N) && ++d > m) break;
      }
      if (d > m) continue;
      if (found >= 0) return -2;
      found = k;
    }
    return found;
  };

  const assign = ((read: ReadBarcodes): number => {
    let key = 0;
    for (let s = 0; s < texts.length; s++) {
      const t = texts[s]!;
      const text = t === Text.Seq || t === Text.SeqFromEnd ? read.seq : ((t === Text.I5 ? read.i5 : read.i7) ?? '');
      const k = keyIn(s, text, t === Text.SeqFromEnd);
      if (k < 0) return -1;
      key = s === 0 ? k * n1 : key + k;
    }
    return sampleOf[key]!;
  }) as SampleAssigner;
  assign.indexOnly = texts.every((t) => t === Text.I7 || t === Text.I5);
  const table = tables[0];
  if (texts.length === 1 && (texts[0] === Text.Seq || texts[0] === Text.SeqFromEnd) && table) {
    // keyIn and assign for this case, in one loop: placement detection runs it cold, where a
    // call and an object per read cost more than the lookup.
    const r = rules[0]![0]!;
    const at = r.at;
    const fromEnd = texts[0] === Text.SeqFromEnd;
    assign.countSeqs = (reads, n) => {
      let assigned = 0;
      for (let k = 0; k < n; k++) {
        const text = k < reads.length ? reads[k]!.seq : '';
        if (text.length < r.length) continue;
        const start = fromEnd ? text.length - r.length : 0;
        let code = 0;
        for (let j = 0; j < at.length; j++) code = code * 5 + DIGIT[text.charCodeAt(start + at[j]!)]!;
        const entry = table(code);
        if (entry > 0 && sampleOf[entry - 1]! >= 0) assigned++;
      }
      return assigned;
    };
  }
  return assign;
}
