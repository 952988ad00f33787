/**
 * Barcode matching on strings, for the few thousand reads of the Lane screen's barcode check and
 * for explaining undetermined reads: which sample is nearest to an unknown barcode, and which
 * usual cause (a reverse-complemented i5, a wrong layout) turns them into a sample's reads.
 * The demultiplexer's hot path uses lookup tables instead (src/service/tools/demux); both follow the
 * same rule: a segment is assigned only when exactly one barcode is within its mismatches.
 */
import { reverseComplement } from './barcodes';
import { ENDS_SEPARATOR, fitLayout, type BarcodeDesign, type BarcodePart } from './design';

/** What a read offers for matching: its sequence (inline designs) and/or its index reads. */
export interface ReadBarcodes {
  seq: string;
  i7?: string | null;
  i5?: string | null;
}

export interface Assignment {
  /** Index into design.barcodes, or -1. */
  sample: number;
  /** Per segment: the distinct part matched (index into `segmentParts`), -1 none, -2 ambiguous. */
  keys: number[];
  mismatches: number;
}

/** Distinct parts per segment, longest first (the order the demultiplexer tries them). */
export function segmentParts(design: BarcodeDesign): BarcodePart[][] {
  return design.segments.map((_, s) => {
    const seen = new Map<string, BarcodePart>();
    for (const b of design.barcodes) seen.set(`${b.parts[s]!.layout}:${b.parts[s]!.bases}`, b.parts[s]!);
    return [...seen.values()].sort((a, b) => b.bases.length - a.bases.length);
  });
}

/** The bases a layout reads from `text` (from its end for 3' layouts); null when it is too short. */
export function readAt(text: string, layout: string, fromEnd: boolean): string | null {
  if (text.length < layout.length) return null;
  const start = fromEnd ? text.length - layout.length : 0;
  let out = '';
  for (let i = 0; i < layout.length; i++) if (layout[i] === 'X') out += text[start + i];
  return out;
}

function mismatchCount(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || a[i] === 'N') d++;
  return d;
}

/** A matcher for one design; `inline` says whether plain bases sit in the read or in an index read. */
export function makeMatcher(design: BarcodeDesign, mismatches: readonly number[], inline: boolean) {
  const parts = segmentParts(design);
  const byKeys = new Map<string, number>();
  const keyOf = design.barcodes.map((b) =>
    b.parts.map((p, s) => parts[s]!.findIndex((q) => q.layout === p.layout && q.bases === p.bases)),
  );
  keyOf.forEach((k, i) => byKeys.set(k.join(','), i));
  const textOf = (read: ReadBarcodes, s: number): { text: string; fromEnd: boolean } => {
    const segment = design.segments[s];
    if (segment === "3'") return { text: read.seq, fromEnd: true };
    if (segment === "5'" || design.kind === 'inline' || (design.kind === 'plain' && inline)) {
      return { text: read.seq, fromEnd: false };
    }
    return { text: (segment === 'i5' ? read.i5 : read.i7) ?? '', fromEnd: false };
  };
  return {
    parts,
    keyOf,
    assign(read: ReadBarcodes): Assignment {
      const keys: number[] = [];
      let total = 0;
      for (let s = 0; s < parts.length; s++) {
        const { text, fromEnd } = textOf(read, s);
        const m = mismatches[s] ?? mismatches[0] ?? 0;
        let found = -1;
        let foundD = 0;
        for (let k = 0; k < parts[s]!.length; k++) {
          const p = parts[s]![k]!;
          const seen = readAt(text, p.layout, fromEnd);
          if (seen === null) continue;
          const d = mismatchCount(seen, p.bases);
          if (d > m) continue;
          if (found >= 0) {
            found = -2;
            break;
          }
          found = k;
          foundD = d;
        }
        keys.push(found);
        total += foundD;
      }
      const sample = keys.every((k) => k >= 0) ? (byKeys.get(keys.join(',')) ?? -1) : -1;
      return { sample, keys, mismatches: total };
    },
    /** The barcode a read shows where the longest layout of each segment looks (for unknown-barcode tallies). */
    observed(read: ReadBarcodes): string {
      const shown = parts.map((ps, s) => {
        const { text, fromEnd } = textOf(read, s);
        return readAt(text, ps[0]!.layout, fromEnd) ?? text;
      });
      return shown.join(design.dual ? '+' : ENDS_SEPARATOR);
    },
  };
}

/** The sample whose barcode is nearest an unknown one (as `observed` shows it), with the distance. */
export function nearestSample(design: BarcodeDesign, unknown: string): { sample: string; distance: number } | null {
  const shown = unknown.split(design.dual ? '+' : ENDS_SEPARATOR);
  let best: { sample: string; distance: number } | null = null;
  const longest = segmentParts(design).map((ps) => ps[0]!);
  for (const b of design.barcodes) {
    let d = 0;
    b.parts.forEach((p, s) => {
      const seen = shown[s] ?? '';
      const fromEnd = design.segments[s] === "3'";
      // Place the observed bases on the longest layout, then read them where this part's layout looks.
      const text = place(seen, longest[s]!.layout, fromEnd);
      const got = readAt(text, p.layout, fromEnd) ?? '';
      d += got.length === p.bases.length ? mismatchCount(got, p.bases) : p.bases.length;
    });
    if (!best || d < best.distance) best = { sample: b.sample, distance: d };
  }
  return best;
}

/** A read-like string carrying `bases` at a layout's X positions (N elsewhere). */
function place(bases: string, layout: string, fromEnd: boolean): string {
  void fromEnd;
  let k = 0;
  let out = '';
  for (const c of layout) out += c === 'X' ? (bases[k++] ?? 'N') : 'N';
  return out;
}

export type UndeterminedCause = 'i5-reverse-complement' | 'i7-reverse-complement' | 'layout' | 'barcode-read';

export interface Diagnosis {
  cause: UndeterminedCause;
  /** Share of the undetermined reads that the fix would assign. */
  fraction: number;
  /** What to change, in a technician's words. */
  message: string;
  /** For a wrong layout: the layout that fits the reads. */
  layout?: string;
}

/**
 * Why reads are undetermined, when one usual cause explains most of them: the sheet's i5 (or
 * i7) written in the other orientation, the barcode at other positions than the layout says,
 * or the barcode on the other read. Null when no such cause fits at least half of the reads.
 */
export function diagnoseUndetermined(
  design: BarcodeDesign,
  mismatches: readonly number[],
  reads: readonly ReadBarcodes[],
  inline: boolean,
  reads2?: readonly ReadBarcodes[],
): Diagnosis | null {
  if (reads.length === 0) return null;
  const candidates: Diagnosis[] = [];
  const share = (d: BarcodeDesign, rs: readonly ReadBarcodes[], asInline = inline) => {
    const m = makeMatcher(d, mismatches, asInline);
    return rs.filter((r) => m.assign(r).sample >= 0).length / reads.length;
  };
  const flip = (s: number): BarcodeDesign => ({
    ...design,
    barcodes: design.barcodes.map((b) => {
      const parts = b.parts.map((p, i) => (i === s ? { ...p, bases: reverseComplement(p.bases) } : p));
      return { ...b, parts, barcode: parts.map((p) => p.bases).join(design.dual ? '+' : ENDS_SEPARATOR) };
    }),
  });
  if (design.dual) {
    candidates.push({
      cause: 'i5-reverse-complement',
      fraction: share(flip(1), reads),
      message:
        "The reads carry the reverse complements of the sheet's i5 indexes: write the i5 column reverse-complemented (or use the sheet for the other i5 orientation, as on NovaSeq 6000 v1.5 and forward-strand instruments)",
    });
    candidates.push({
      cause: 'i7-reverse-complement',
      fraction: share(flip(0), reads),
      message:
        "The reads carry the reverse complements of the sheet's i7 indexes: write the i7 column reverse-complemented",
    });
  } else if (design.kind === 'index' || (design.kind === 'plain' && !inline)) {
    candidates.push({
      cause: 'i7-reverse-complement',
      fraction: share(flip(0), reads),
      message: "The reads carry the reverse complements of the sheet's indexes: write them reverse-complemented",
    });
  }
  if (design.kind === 'inline' || (design.kind === 'plain' && inline)) {
    const shifted = bestShift(design, mismatches, reads, inline);
    if (shifted) candidates.push(shifted);
    if (reads2?.length) {
      candidates.push({
        cause: 'barcode-read',
        fraction: share(design, reads2),
        message: 'The barcodes are on read 2, not read 1: choose read 2 as the barcode read',
      });
    }
  }
  const best = candidates.sort((a, b) => b.fraction - a.fraction)[0];
  return best && best.fraction >= 0.5 ? best : null;
}

/** The 5' offset (more or fewer UMI bases before the barcode) that assigns the most reads. */
function bestShift(
  design: BarcodeDesign,
  mismatches: readonly number[],
  reads: readonly ReadBarcodes[],
  inline: boolean,
): Diagnosis | null {
  let best: Diagnosis | null = null;
  const s = design.segments.indexOf("5'") >= 0 ? design.segments.indexOf("5'") : 0;
  for (let shift = -6; shift <= 12; shift++) {
    if (shift === 0) continue;
    let ok = true;
    const moved: BarcodeDesign = {
      ...design,
      kind: 'inline',
      barcodes: design.barcodes.map((b) => ({
        ...b,
        parts: b.parts.map((p, i) => {
          if (i !== s) return p;
          const lead = p.layout.indexOf('X') + shift;
          if (lead < 0) ok = false;
          const xs = fitLayout(p.layout, p.bases.length) ?? p.layout;
          const core = xs.slice(xs.indexOf('X'));
          return { ...p, layout: 'N'.repeat(Math.max(0, lead)) + core };
        }),
      })),
    };
    if (!ok) continue;
    const m = makeMatcher(moved, mismatches, true);
    const fraction = reads.filter((r) => m.assign(r).sample >= 0).length / reads.length;
    if (!best || fraction > best.fraction) {
      const layout = moved.barcodes[0]!.parts[s]!.layout;
      best = {
        cause: 'layout',
        fraction,
        layout,
        message: `The barcodes start ${Math.abs(shift)} base${Math.abs(shift) === 1 ? '' : 's'} ${shift > 0 ? 'later' : 'earlier'} than the layout says: the layout ${layout} fits the reads`,
      };
    }
  }
  void inline;
  return best;
}
