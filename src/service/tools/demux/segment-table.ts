/**
 * One segment of a barcode design at run time (the 5' or 3' barcode of a read, or index read 1
 * or 2): its distinct barcodes grouped by layout, each group a lookup table, tried longest
 * barcode first. The sheet rules prove that no read is within the allowed mismatches of two
 * barcodes (compared where their layouts overlap), so the first group that matches is the only
 * one that could.
 */
import type { BarcodePart } from '../../../shared/annotation/design';
import { BASE5, BarcodeIndex, MAX_BARCODE_LENGTH, decode } from './barcode-index';

export interface SegmentGroup {
  /** Layout length: the bases trimmed from the read for an inline segment. */
  span: number;
  /** Barcode positions within the span. */
  pos: Int32Array;
  /** UMI positions within the span. */
  umi: Int32Array;
  /** The first barcode position when the barcode's bases are contiguous (no UMI inside), else -1. */
  run: number;
  index: BarcodeIndex;
}

export class SegmentTable {
  readonly groups: SegmentGroup[];
  /** Distinct barcodes of the segment (key = position). */
  readonly keys: BarcodePart[];
  /** After `match`: the group that matched. */
  group = 0;
  /** After a failed `match`: the code of the longest group's positions, -1 when the read was too short. */
  unknownCode = -1;
  readonly longest: number;

  constructor(
    parts: readonly BarcodePart[],
    readonly fromEnd: boolean,
    mismatches: number,
  ) {
    this.keys = [...parts];
    const byLayout = new Map<string, number[]>();
    parts.forEach((p, k) => {
      if (p.bases.length > MAX_BARCODE_LENGTH) {
        throw new Error(`Barcodes longer than ${MAX_BARCODE_LENGTH} bases are not supported`);
      }
      byLayout.set(p.layout, [...(byLayout.get(p.layout) ?? []), k]);
    });
    this.groups = [...byLayout]
      .sort((a, b) => parts[b[1][0]!]!.bases.length - parts[a[1][0]!]!.bases.length)
      .map(([layout, keys]) => ({
        span: layout.length,
        pos: Int32Array.from([...layout].flatMap((c, i) => (c === 'X' ? [i] : []))),
        umi: Int32Array.from([...layout].flatMap((c, i) => (c === 'N' ? [i] : []))),
        run: /^N*X+N*$/.test(layout) ? layout.indexOf('X') : -1,
        index: new BarcodeIndex(
          keys.map((k) => parts[k]!.bases),
          parts[keys[0]!]!.bases.length,
          mismatches,
          keys,
        ),
      }));
    this.longest = this.groups[0]!.pos.length;
  }

  /** The table entry (see BarcodeIndex.lookup) of the barcode in b[start, end), or 0. */
  match(b: Uint8Array, start: number, end: number): number {
    const groups = this.groups;
    this.unknownCode = -1;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      if (end - start < group.span) continue;
      const at = this.fromEnd ? end - group.span : start;
      const pos = group.pos;
      let code = 0;
      if (group.run >= 0) {
        // Contiguous bases (index reads, most inline layouts): no position table to read.
        const from = at + group.run;
        const to = from + pos.length;
        for (let k = from; k < to; k++) code = code * 5 + (BASE5[b[k]!] as number);
      } else for (let k = 0; k < pos.length; k++) code = code * 5 + (BASE5[b[at + pos[k]!]!] as number);
      const entry = group.index.lookup(code);
      if (entry > 0) {
        this.group = g;
        return entry;
      }
      if (g === 0) this.unknownCode = code;
    }
    return 0;
  }

  /** An unknown code as bases. */
  decode(code: number): string {
    return decode(code, this.longest);
  }
}
