/**
 * The placements worth scoring for a lane's barcodes: the read header's i7 (or i7+i5, each
 * index in either orientation), index reads, inline at the 5' end at each offset the layout's
 * UMI positions allow (a few spacer bases for bare barcodes), at the 3' end or right before the
 * adapter, on read 1 or read 2. Each is the sheet's design moved there.
 */
import { reverseComplement } from '../annotation/barcodes';
import { headerIndex } from '../read-names';
import {
  ENDS_SEPARATOR,
  type BarcodeDesign,
  type BarcodePart,
  type DesignKind,
  type SegmentName,
} from '../annotation/design';
import type { LaneSample, PlacementPlan } from './placement-plan';

/** Offsets tried for bare barcodes (no layout): a few spacer bases before the barcode. */
const PLAIN_MAX_OFFSET = 4;

export interface Placement {
  /** Stable name, for tests and logs: `header`, `header:i5rc`, `inline:5'+2:r1`, `inline:5'+3,3'@adapter:r1`... */
  id: string;
  /** In a technician's words: "inline at the 5' end of read 1". */
  description: string;
  source: 'header' | 'index-reads' | 'inline';
  barcodeRead: 1 | 2;
  /** The 3' barcode is read right before this adapter. */
  adapter: string | null;
  /** The 3' barcode is at read 2's start, reverse-complemented (the 5' one on read 1). */
  threeOnRead2?: boolean;
  design: BarcodeDesign;
}

/** The design with other segments and parts (layouts and the one-line layout recomputed). */
function redesign(
  design: BarcodeDesign,
  kind: DesignKind,
  segments: SegmentName[],
  part: (p: BarcodePart, s: number) => BarcodePart,
): BarcodeDesign {
  const barcodes = design.barcodes.map((b) => ({ ...b, parts: b.parts.map(part) }));
  const layouts = segments.map((_, s) => {
    const seen = new Map<string, number>();
    for (const b of barcodes) seen.set(b.parts[s]!.layout, b.parts[s]!.bases.length);
    return [...seen].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l]) => l);
  });
  const layout =
    kind === 'inline'
      ? layouts
          .map((ls, s) => (segments[s] === "3'" && segments.length === 1 ? ENDS_SEPARATOR : '') + ls.join(' | '))
          .join(ENDS_SEPARATOR)
      : null;
  return { ...design, kind, segments, layouts, layout, barcodes };
}

/** A 5' part moved to start `offset` bases in, keeping the layout's span (UMI bases around it). */
function shifted(p: BarcodePart, offset: number, span: number): BarcodePart {
  const n = p.bases.length;
  return { bases: p.bases, layout: 'N'.repeat(offset) + 'X'.repeat(n) + 'N'.repeat(Math.max(0, span - offset - n)) };
}

/** The 5' offsets a part's layout allows: its UMI positions, when its barcode bases are one run. */
function offsetsOf(p: BarcodePart): number[] | null {
  if (!/^N*X+N*$/.test(p.layout)) return null;
  const umi = p.layout.length - p.bases.length;
  return Array.from({ length: umi + 1 }, (_, k) => k);
}

const readName = (r: 1 | 2) => `read ${r}`;

/** Every placement worth scoring for the lane, the one it asked for first. */
export function candidatePlacements(plan: PlacementPlan, sample: LaneSample, adapter: string | null): Placement[] {
  const design = plan.design;
  const out: Placement[] = [];
  const reads: Array<1 | 2> = sample.read2 ? (plan.barcodeRead === 2 ? [2, 1] : [1, 2]) : [1];
  const hasHeader = sample.read1.slice(0, 100).some((r) => headerIndex(r.header) !== null);
  // A header without bases in its index field (`1:N:0:`, `1:N:0:1`) offers nothing to match,
  // unless the lane says the indexes are there (then that placement is checked, and refused).
  const indexWhere: 'header' | 'index-reads' | null = sample.index1
    ? 'index-reads'
    : hasHeader || plan.source === 'header' || design.kind === 'index'
      ? 'header'
      : null;
  const indexCandidates = () => {
    if (!indexWhere) return;
    const flips =
      design.segments.length === 2
        ? [
            [false, false],
            [false, true],
            [true, false],
            [true, true],
          ]
        : [[false], [true]];
    for (const flip of flips) {
      const names = design.segments.map((s, i) => (flip[i] ? `${s} reverse-complemented` : '')).filter(Boolean);
      out.push({
        id: `${indexWhere}${flip.map((f, i) => (f ? `:${design.segments[i]}rc` : '')).join('')}`,
        description: `${indexWhere === 'header' ? 'in the read header' : 'in the index reads'} (${design.segments.join('+')}${names.length ? `, ${names.join(', ')}` : ''})`,
        source: indexWhere,
        barcodeRead: plan.barcodeRead,
        adapter: null,
        design: redesign(design, design.kind, design.segments, (p, s) =>
          flip[s] ? { ...p, bases: reverseComplement(p.bases) } : p,
        ),
      });
    }
  };
  const inlinePlain = () => {
    for (const r of reads) {
      for (let k = 0; k <= PLAIN_MAX_OFFSET; k++) {
        out.push({
          id: `inline:5'+${k}:r${r}`,
          description: `inline at the 5' end of ${readName(r)}${k ? `, after ${k} base${k === 1 ? '' : 's'}` : ''}`,
          source: 'inline',
          barcodeRead: r,
          adapter: null,
          design: redesign(design, 'inline', ["5'"], (p) => ({
            bases: p.bases,
            layout: 'N'.repeat(k) + 'X'.repeat(p.bases.length),
          })),
        });
      }
      for (const a of adapter ? [null, adapter] : [null]) {
        out.push({
          id: `inline:3'@${a ? 'adapter' : 'end'}:r${r}`,
          description: `inline at the 3' end of ${readName(r)}${a ? `, right before the adapter ${a}` : ''}`,
          source: 'inline',
          barcodeRead: r,
          adapter: a,
          design: redesign(design, 'inline', ["3'"], (p) => ({ bases: p.bases, layout: 'X'.repeat(p.bases.length) })),
        });
      }
    }
  };
  if (design.kind === 'plain') {
    const inlineFirst = plan.source === 'inline' || (plan.source === 'auto' && !indexWhere);
    if (inlineFirst) {
      inlinePlain();
      indexCandidates();
    } else {
      indexCandidates();
      inlinePlain();
    }
    return out;
  }
  if (design.kind === 'index') {
    indexCandidates();
    return out;
  }
  // Inline designs with a layout: 5' offsets within the UMI positions, 3' at the end or before the adapter.
  const five = design.segments.indexOf("5'");
  const three = design.segments.indexOf("3'");
  const first = design.barcodes[0]!.parts;
  const offsets = five >= 0 ? offsetsOf(first[five]!) : null;
  const asIs = five >= 0 ? first[five]!.layout.indexOf('X') : 0;
  const ks = offsets ? [asIs, ...offsets.filter((k) => k !== asIs)] : [asIs];
  /** The design with its 5' barcode `k` bases in (the design itself where the sheet puts it). */
  const fiveAt = (k: number): BarcodeDesign =>
    k === asIs
      ? design
      : redesign(design, 'inline', design.segments, (p, s) =>
          s === five && offsetsOf(p) ? shifted(p, k, p.layout.length) : p,
        );
  for (const r of reads) {
    for (const k of ks) {
      for (const a of three >= 0 && adapter ? [null, adapter] : [null]) {
        const where: string[] = [];
        if (five >= 0) where.push(`5' end${k !== asIs ? ` (barcode after ${k} base${k === 1 ? '' : 's'})` : ''}`);
        if (three >= 0) where.push(`3' end${a ? ` right before the adapter ${a}` : ''}`);
        out.push({
          id: `inline:${[five >= 0 ? `5'+${k}` : '', three >= 0 ? `3'@${a ? 'adapter' : 'end'}` : ''].filter(Boolean).join(',')}:r${r}`,
          description: `inline at the ${where.join(' and the ')} of ${readName(r)}`,
          source: 'inline',
          barcodeRead: r,
          adapter: a,
          design: fiveAt(k),
        });
      }
    }
  }
  // Paired lanes: the 3' barcode read at read 2's start, as Ultraplex does with -i2 (a long
  // insert hides it on read 1, never on read 2).
  if (sample.read2 && five >= 0 && three >= 0) {
    for (const k of ks) {
      out.push({
        id: `inline:5'+${k}:r1,3'@start:r2`,
        description: `inline at the 5' end of read 1${k !== asIs ? ` (barcode after ${k} base${k === 1 ? '' : 's'})` : ''} and the start of read 2 (the 3' barcode reverse-complemented)`,
        source: 'inline',
        barcodeRead: 1,
        adapter: null,
        threeOnRead2: true,
        design: fiveAt(k),
      });
    }
  }
  return out;
}
