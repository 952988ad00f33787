/**
 * Turns a sheet's Barcode column into one barcode design: plain barcodes of one length (inline
 * or in the read header), dual indexes `ACGT+TTGA` (read header), or an inline layout with UMI
 * positions, given either as an option (`NNNXXXXXNN`, the column holds the X part) or written
 * in full in each row (`NNNACGTANN`). Rows that do not fit the design are errors.
 */
import { BARCODE, type AnnotationEntry, type Issue } from './columns';
import { isAcgtn, layoutOfBarcode, parseDualIndex, parseLayout } from './barcodes';

/** What the demultiplexer needs to know about the barcodes of a lane. */
export interface BarcodeDesign {
  /** Dual indexes (`ACGT+TTGA`), matched in the read header only. */
  dual: boolean;
  /** Inline layout with UMI positions, or null for plain barcodes. */
  layout: string | null;
  /** Barcode positions per read (both parts for dual indexes). */
  barcodeLength: number;
  /** Per row: the barcode to match (X part; dual as `i7+i5`). */
  barcodes: Array<{ row: number; sample: string; barcode: string }>;
}

/** Resolves the barcode design of a lane sheet, with errors for rows that break it. */
export function resolveDesign(
  entries: readonly AnnotationEntry[],
  layoutOption?: string,
): { design: BarcodeDesign | null; errors: Issue[] } {
  const errors: Issue[] = [];
  const err = (row: number, message: string) => errors.push({ row, column: BARCODE, message });
  let layout: string | null = null;
  if (layoutOption) {
    const parsed = parseLayout(layoutOption);
    if (!parsed) {
      err(1, `Layout "${layoutOption}" must be made of N (UMI) and X (barcode) positions, like NNNXXXXXNN`);
      return { design: null, errors };
    }
    layout = parsed.pattern;
  }
  const barcodes: BarcodeDesign['barcodes'] = [];
  let reference: { row: number; shape: string; dual: boolean } | null = null;
  for (const e of entries) {
    const raw = e.barcode;
    if (!raw) continue; // missing values are reported by the required-field rule
    const { i7, i5 } = parseDualIndex(raw);
    const parts = i5 === null ? [i7] : [i7, i5];
    if (parts.some((p) => !p) || raw.split('+').length > 2) {
      err(e.row, `Barcode "${raw}" is not a barcode or a dual index like ACGTACGT+TTGATTGA`);
      continue;
    }
    if (!parts.every(isAcgtn)) {
      err(e.row, `Barcode "${raw}" has characters outside A, C, G, T and N`);
      continue;
    }
    let barcode = raw;
    let shape: string;
    if (raw.includes('N')) {
      // A full Ultraplex barcode: N positions are the UMI.
      if (i5 !== null) {
        err(e.row, `Barcode "${raw}": N marks UMI positions of inline barcodes, which cannot be dual indexes`);
        continue;
      }
      shape = layoutOfBarcode(raw);
      if (layout && shape !== layout) {
        err(e.row, `Barcode "${raw}" has the layout ${shape}, not the lane's layout ${layout}`);
        continue;
      }
      barcode = raw.replace(/N/g, '');
      if (!barcode) {
        err(e.row, `Barcode "${raw}" has UMI positions only`);
        continue;
      }
    } else if (layout) {
      const xs = layout.replace(/N/g, '').length;
      if (i5 !== null || raw.length !== xs) {
        err(e.row, `Barcode "${raw}" should have ${xs} bases, the X positions of the layout ${layout}`);
        continue;
      }
      shape = layout;
    } else {
      shape = parts.map((p) => 'X'.repeat(p.length)).join('+');
    }
    if (!reference) reference = { row: e.row, shape, dual: i5 !== null };
    else if (shape !== reference.shape) {
      const what = reference.dual !== (i5 !== null) ? 'single and dual indexes are mixed' : 'the layout differs';
      err(e.row, `Barcode "${raw}" (${shape}) does not match row ${reference.row} (${reference.shape}): ${what}`);
      continue;
    }
    barcodes.push({ row: e.row, sample: e.sampleName, barcode });
  }
  if (!reference) return { design: null, errors };
  const isInline = reference.shape.includes('N') || !!layout;
  const design: BarcodeDesign = {
    dual: reference.dual,
    layout: isInline ? (layout ?? reference.shape) : null,
    barcodeLength: reference.shape.replace(/[N+]/g, '').length,
    barcodes,
  };
  return { design, errors };
}
