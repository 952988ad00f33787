/**
 * Barcode arithmetic shared by the sheet validator, the live sheet editor and the
 * demultiplexer: Hamming distance, reverse complement, dual-index parsing, inline layouts with
 * UMI positions, and how many mismatches a barcode set can safely tolerate.
 */

/** An index read pair as written in a sheet or a read header: `ACGT` or dual `ACGT+TTGA`. */
export interface DualIndex {
  i7: string;
  i5: string | null;
}

/** Splits `ACGT+TTGA` into its two indexes (a single index has i5 null). */
export function parseDualIndex(barcode: string): DualIndex {
  const plus = barcode.indexOf('+');
  if (plus < 0) return { i7: barcode, i5: null };
  return { i7: barcode.slice(0, plus), i5: barcode.slice(plus + 1) };
}

/** True when every character is one of A, C, G, T, N (upper case). */
export function isAcgtn(s: string): boolean {
  return /^[ACGTN]+$/.test(s);
}

/**
 * Mismatching positions between two equally long sequences; for different lengths, the
 * shorter's length plus the difference (a barcode that is a prefix of another is that close).
 */
export function hammingDistance(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let d = Math.abs(a.length - b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) d++;
  return d;
}

/** Distance between two barcodes, dual indexes compared as the concatenation of both reads. */
export function barcodeDistance(a: string, b: string): number {
  return hammingDistance(a.replace('+', ''), b.replace('+', ''));
}

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A', N: 'N', '+': '+' };

/** Reverse complement of an ACGTN sequence (dual indexes: each part, order kept). */
export function reverseComplement(seq: string): string {
  if (seq.includes('+')) {
    const { i7, i5 } = parseDualIndex(seq);
    return `${reverseComplement(i7)}+${reverseComplement(i5 ?? '')}`;
  }
  let out = '';
  for (let i = seq.length - 1; i >= 0; i--) out += COMPLEMENT[seq[i] as string] ?? 'N';
  return out;
}

/** The most mismatches that still assign every read unambiguously: floor((d - 1) / 2). */
export function maxSafeMismatches(minDistance: number): number {
  return Math.max(0, Math.floor((minDistance - 1) / 2));
}

/** The closest pair in a list of barcodes (null for fewer than two). */
export function closestPair(barcodes: readonly string[]): { a: number; b: number; distance: number } | null {
  let best: { a: number; b: number; distance: number } | null = null;
  for (let i = 0; i < barcodes.length; i++) {
    for (let j = i + 1; j < barcodes.length; j++) {
      const d = barcodeDistance(barcodes[i] as string, barcodes[j] as string);
      if (!best || d < best.distance) best = { a: i, b: j, distance: d };
    }
  }
  return best;
}

/**
 * An inline (5') layout in the Ultraplex style: `N` marks a UMI position and `X` a barcode
 * position, for example `NNNXXXXXNN`. The whole layout is trimmed from the read.
 */
export interface InlineLayout {
  pattern: string;
  barcodePositions: number[];
  umiPositions: number[];
}

/** Parses `NNNXXXXXNN`; null when it holds anything but N and X or no X at all. */
export function parseLayout(pattern: string): InlineLayout | null {
  const p = pattern.trim().toUpperCase();
  if (!/^[NX]+$/.test(p) || !p.includes('X')) return null;
  const barcodePositions: number[] = [];
  const umiPositions: number[] = [];
  for (let i = 0; i < p.length; i++) (p[i] === 'X' ? barcodePositions : umiPositions).push(i);
  return { pattern: p, barcodePositions, umiPositions };
}

/** The layout a full Ultraplex barcode implies (`NNNACGTANN` -> `NNNXXXXXNN`). */
export function layoutOfBarcode(barcode: string): string {
  return barcode.replace(/[ACGT]/g, 'X');
}

/** The barcode part of a full Ultraplex barcode (`NNNACGTANN` -> `ACGTA`). */
export function barcodePart(barcode: string): string {
  return barcode.replace(/N/g, '');
}

/**
 * Distance between two barcodes as the reads see them: the positions of the read that both
 * layouts read as barcode, and how many of those differ. Barcodes of different lengths (or
 * offsets) are compared where they overlap: elsewhere one of them reads a UMI or the insert,
 * random bases that can match anything. `fromEnd` compares 3' layouts, aligned at the read's end.
 */
export function partDistance(
  a: { bases: string; layout: string },
  b: { bases: string; layout: string },
  fromEnd = false,
): number {
  const at = (p: { bases: string; layout: string }) => {
    const bases = new Map<number, number>();
    let k = 0;
    const n = p.layout.length;
    for (let i = 0; i < n; i++) {
      if (p.layout[i] !== 'X') continue;
      bases.set(fromEnd ? n - 1 - i : i, p.bases.charCodeAt(k++));
    }
    return bases;
  };
  const pa = at(a);
  const pb = at(b);
  let d = 0;
  for (const [pos, base] of pa) {
    const other = pb.get(pos);
    if (other !== undefined && other !== base) d++;
  }
  return d;
}

/** The largest mismatch count the demultiplexer accepts for one barcode segment. */
export const MAX_MISMATCHES = 2;
