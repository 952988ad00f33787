/**
 * Turns a sheet's Barcode column into one barcode design. A design has one or two segments,
 * each a barcode read from one place:
 * - inline at the 5' end (`NNNACGTACNN`: N = UMI positions), of one length or mixed lengths;
 * - inline at the 3' end (`...ACGTACNNNN`, as the bases appear at the read's end);
 * - both ends, combinatorial 5'+3' pairs in Ultraplex's design (`NNNACGTACNN...TTGACCNNNN`);
 * - index reads, single (`ACGTACGT`) or dual (`ACGTACGT+TTGATTGA`, i7 then i5), from the read
 *   header's index field or from I1/I2 index-read files;
 * - plain bases (`ACGTAC`): inline at the 5' end or a header index, decided by the reads.
 * The layout can also be given for the lane (`NNNXXXXXXNN`, `...XXXXXXNNNN`,
 * `NNNXXXXXXNN...XXXXXXNNNN`); then the column holds only the X bases, and a contiguous X run
 * stands for each row's barcode, whatever its length.
 */
import { BARCODE, type AnnotationEntry, type Issue } from './columns';
import { isAcgtn, parseDualIndex } from './barcodes';

/** Separates the 5' and 3' parts of a combinatorial barcode or layout (cutadapt's linked-adapter notation). */
export const ENDS_SEPARATOR = '...';

/** Where a design's barcodes are read. */
export type DesignKind = 'inline' | 'index' | 'plain';

/** What one segment of a design is: the read's 5' end, its 3' end, or index read 1 or 2. */
export type SegmentName = "5'" | "3'" | 'i7' | 'i5';

/** One barcode of one segment: the bases to match and where they sit. */
export interface BarcodePart {
  bases: string;
  /**
   * N (UMI) and X (barcode) positions. A 5' layout starts at the read's first base; a 3' layout
   * ends at the read's last base; an index layout is all X.
   */
  layout: string;
}

export interface SampleBarcode {
  row: number;
  sample: string;
  /** The bases matched: parts joined by "+" (dual) or "..." (5'+3'). */
  barcode: string;
  /** One part per segment of the design. */
  parts: BarcodePart[];
}

/** What the demultiplexer needs to know about the barcodes of a lane. */
export interface BarcodeDesign {
  kind: DesignKind;
  segments: SegmentName[];
  /** Two index reads (i7+i5). */
  dual: boolean;
  /** The layouts as one line (alternatives of mixed lengths joined by " | "), null for index and plain designs. */
  layout: string | null;
  /** Distinct layouts per segment, longest barcode first. */
  layouts: string[][];
  /** Bases matched per read, over all segments (the longest barcode for mixed lengths). */
  barcodeLength: number;
  barcodes: SampleBarcode[];
}

/** A lane layout option split into its ends; null when it is not one. */
export function parseLayoutOption(option: string): { five: string | null; three: string | null } | null {
  const p = option.trim().toUpperCase();
  const at = p.indexOf(ENDS_SEPARATOR);
  const five = at < 0 ? p : p.slice(0, at);
  const three = at < 0 ? '' : p.slice(at + ENDS_SEPARATOR.length);
  const ok = (s: string) => /^[NX]*$/.test(s) && (s === '' || s.includes('X'));
  if (!ok(five) || !ok(three) || (!five && !three) || three.includes('.')) return null;
  return { five: five || null, three: three || null };
}

/** The layout with its X run widened or narrowed to `length` bases; null when the X positions are not one run. */
export function fitLayout(layout: string, length: number): string | null {
  if (layout.replace(/N/g, '').length === length) return layout;
  const first = layout.indexOf('X');
  const last = layout.lastIndexOf('X');
  if (layout.slice(first, last + 1).includes('N')) return null;
  return layout.slice(0, first) + 'X'.repeat(length) + layout.slice(last + 1);
}

/** Bases and layout of a full inline barcode (`NNNACGTNN` -> ACGT, NNNXXXXNN). */
function fullPart(cell: string): BarcodePart {
  return { bases: cell.replace(/N/g, ''), layout: cell.replace(/[ACGT]/g, 'X') };
}

interface RowShape {
  /** single, dual, inline5, inline3, inline53 */
  ends: string;
  umi: boolean;
}

/** Resolves the barcode design of a lane sheet, with errors for rows that break it. */
export function resolveDesign(
  entries: readonly AnnotationEntry[],
  layoutOption?: string,
): { design: BarcodeDesign | null; errors: Issue[] } {
  const errors: Issue[] = [];
  const err = (row: number, message: string) => errors.push({ row, column: BARCODE, message });
  let option: { five: string | null; three: string | null } | null = null;
  if (layoutOption) {
    option = parseLayoutOption(layoutOption);
    if (!option) {
      err(
        1,
        `Layout "${layoutOption}" must be made of N (UMI) and X (barcode) positions, like NNNXXXXXNN, ...XXXXXXNNNN (3') or NNNXXXXXNN...XXXXXXNNNN (both ends)`,
      );
      return { design: null, errors };
    }
  }
  const barcodes: SampleBarcode[] = [];
  let reference: { row: number; shape: RowShape; text: string } | null = null;
  for (const e of entries) {
    const raw = e.barcode;
    if (!raw) continue; // missing values are reported by the required-field rule
    const parsed = parseCell(raw, option, (m) => err(e.row, m));
    if (!parsed) continue;
    const { parts, shape } = parsed;
    const text = describeShape(shape, parts);
    if (!reference) reference = { row: e.row, shape, text };
    else if (shape.ends !== reference.shape.ends || shape.umi !== reference.shape.umi) {
      const what =
        (shape.ends === 'dual') !== (reference.shape.ends === 'dual')
          ? 'single and dual indexes are mixed'
          : shape.ends !== reference.shape.ends
            ? "the barcode ends (5', 3' or both) differ"
            : 'one has UMI positions and the other none: write the layout in every row or give it for the lane';
      err(e.row, `Barcode "${raw}" (${text}) does not match row ${reference.row} (${reference.text}): ${what}`);
      continue;
    }
    const barcode = parts.map((p) => p.bases).join(shape.ends === 'dual' ? '+' : ENDS_SEPARATOR);
    barcodes.push({ row: e.row, sample: e.sampleName, barcode, parts });
  }
  if (!reference) return { design: null, errors };
  const ends = reference.shape.ends;
  const kind: DesignKind =
    ends === 'dual' ? 'index' : ends === 'single' && !reference.shape.umi && !option ? 'plain' : 'inline';
  const segments: SegmentName[] =
    ends === 'dual'
      ? ['i7', 'i5']
      : ends === 'inline3'
        ? ["3'"]
        : ends === 'inline53'
          ? ["5'", "3'"]
          : kind === 'plain'
            ? ['i7']
            : ["5'"];
  const layouts = segments.map((_, s) => {
    const seen = new Map<string, number>();
    for (const b of barcodes) seen.set(b.parts[s]!.layout, b.parts[s]!.bases.length);
    return [...seen].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l]) => l);
  });
  const design: BarcodeDesign = {
    kind,
    segments,
    dual: ends === 'dual',
    layout:
      kind === 'inline'
        ? layouts
            .map((ls, s) => (segments[s] === "3'" && segments.length === 1 ? ENDS_SEPARATOR : '') + ls.join(' | '))
            .join(ENDS_SEPARATOR)
        : null,
    layouts,
    barcodeLength: Math.max(...barcodes.map((b) => b.parts.reduce((n, p) => n + p.bases.length, 0))),
    barcodes,
  };
  return { design, errors };
}

function describeShape(shape: RowShape, parts: BarcodePart[]): string {
  if (shape.ends === 'dual') return parts.map((p) => p.layout).join('+');
  if (shape.ends === 'inline3') return ENDS_SEPARATOR + parts[0]!.layout;
  return parts.map((p) => p.layout).join(ENDS_SEPARATOR);
}

/** One cell's parts, or null after reporting why it cannot be read. */
function parseCell(
  raw: string,
  option: { five: string | null; three: string | null } | null,
  err: (message: string) => void,
): { parts: BarcodePart[]; shape: RowShape } | null {
  if (raw.includes('+')) {
    const { i7, i5 } = parseDualIndex(raw);
    if (!i7 || !i5 || raw.split('+').length > 2) {
      err(`Barcode "${raw}" is not a barcode or a dual index like ACGTACGT+TTGATTGA`);
      return null;
    }
    if (!isAcgtn(i7) || !isAcgtn(i5)) {
      err(`Barcode "${raw}" has characters outside A, C, G, T and N`);
      return null;
    }
    if (/N/.test(raw) || option) {
      err(`Barcode "${raw}": UMI positions and layouts describe inline barcodes, which cannot be dual indexes`);
      return null;
    }
    return {
      parts: [i7, i5].map((b) => ({ bases: b, layout: 'X'.repeat(b.length) })),
      shape: { ends: 'dual', umi: false },
    };
  }
  const at = raw.indexOf(ENDS_SEPARATOR);
  let five = at < 0 ? raw : raw.slice(0, at);
  let three = at < 0 ? '' : raw.slice(at + ENDS_SEPARATOR.length);
  if (at >= 0 && !five && !three) {
    err(`Barcode "${raw}" has no bases`);
    return null;
  }
  if (![five, three].every((p) => p === '' || isAcgtn(p))) {
    err(`Barcode "${raw}" has characters outside A, C, G, T and N`);
    return null;
  }
  if (option && at < 0) {
    // The lane's layout says which end a bare barcode belongs to.
    if (option.five && option.three) {
      err(`Barcode "${raw}" needs both ends for the layout ${layoutText(option)}: write it as 5'BASES...3'BASES`);
      return null;
    }
    if (option.three) [five, three] = ['', five];
  }
  const parts: BarcodePart[] = [];
  let umi = false;
  for (const [cell, end] of [
    [five, 'five'],
    [three, 'three'],
  ] as const) {
    if (!cell) continue;
    const wanted = option ? option[end] : null;
    if (option && !wanted) {
      err(
        `Barcode "${raw}" has a ${end === 'five' ? "5'" : "3'"} part, which the layout ${layoutText(option)} has not`,
      );
      return null;
    }
    let part: BarcodePart;
    if (cell.includes('N')) {
      part = fullPart(cell);
      umi = true;
      if (!part.bases) {
        err(`Barcode "${raw}" has UMI positions only`);
        return null;
      }
      if (wanted && fitLayout(wanted, part.bases.length) !== part.layout) {
        err(`Barcode "${raw}" has the layout ${part.layout}, not the lane's layout ${wanted}`);
        return null;
      }
    } else if (wanted) {
      const layout = fitLayout(wanted, cell.length);
      if (!layout) {
        err(
          `Barcode "${raw}" should have ${wanted.replace(/N/g, '').length} bases, the X positions of the layout ${wanted}`,
        );
        return null;
      }
      umi = umi || layout.includes('N');
      part = { bases: cell, layout };
    } else {
      part = { bases: cell, layout: 'X'.repeat(cell.length) };
    }
    parts.push(part);
  }
  if (option?.five && option.three && parts.length < 2) {
    err(`Barcode "${raw}" needs both ends for the layout ${layoutText(option)}: write it as 5'BASES...3'BASES`);
    return null;
  }
  const ends = at < 0 && !option?.three ? 'single' : five && three ? 'inline53' : three ? 'inline3' : 'single';
  return { parts, shape: { ends, umi: umi || !!option } };
}

function layoutText(option: { five: string | null; three: string | null }): string {
  return `${option.five ?? ''}${option.three ? ENDS_SEPARATOR + option.three : ''}`;
}
