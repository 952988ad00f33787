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
import { segmentParts, type ReadBarcodes } from '../../shared/annotation/matcher';
import type { BarcodeDesign } from '../../shared/annotation/design';

const N = 78;

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
};

export function sampleAssigner(design: BarcodeDesign, mismatches: readonly number[], inline: boolean): SampleAssigner {
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

  const keyIn = (s: number, text: string, fromEnd: boolean): number => {
    const m = allowed[s]!;
    const rs = rules[s]!;
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
  return assign;
}
