/**
 * Where a 3' barcode is read, as the demultiplexer reads it (Ultraplex's rule for its 5'+3'
 * design and iCLIP): at the end of the barcode read; right before the 3' adapter, and then only in
 * reads that show 3 or more adapter bases (a long insert hides the 3' barcode, and such a read
 * stays undetermined); or, on a paired lane, at read 2's start, reverse-complemented (Ultraplex
 * `-i2`: read 2 is the insert's other strand, so read 1 followed by read 2 reverse-complemented
 * ends with the 3' barcode whatever the insert's length). Shared by the service's placement
 * detection and the Lane screen's barcode check, so the check counts what the upload assigns.
 */
import type { BarcodeDesign } from '../annotation/design';
import { cutAtAdapter, latin1 } from './adapter';

export interface ThreePrimePlacement {
  /** The 3' barcode sits right before this adapter (null: at the read's end). */
  adapter: string | null;
  /** The 3' barcode is at read 2's start, reverse-complemented (the 5' one at read 1's start). */
  threeOnRead2: boolean;
}

/**
 * The text a 3' barcode is read from the end of: the barcode read, with read 2
 * reverse-complemented after it when the 3' barcode is read 2's start, cut where the adapter
 * starts; null when an adapter is looked for and the read shows none (no 3' barcode to read).
 */
export function threePrimeText(seq: string, read2Reversed: string | null, adapter: Uint8Array | null): string | null {
  const text = read2Reversed === null ? seq : seq + read2Reversed;
  if (!adapter) return text;
  const cut = cutAtAdapter(text, adapter);
  return cut.length === text.length ? null : cut;
}

/** The adapter as the aligner takes it (bytes), or null. */
export function adapterBytes(adapter: string | null): Uint8Array | null {
  return adapter ? latin1(adapter) : null;
}

/**
 * The places a design's 3' barcode may be read on a lane, in the order placement detection
 * tries them for the barcode read's own layout (placement-candidates.ts): the read's end, right
 * before the adapter (when the reads carry one), then read 2's start (paired 5'+3' designs with
 * the barcodes on read 1). None for a design without a 3' segment.
 */
export function threePrimePlacements(
  design: BarcodeDesign,
  adapter: string | null,
  read2WithBarcodesOnRead1: boolean,
): ThreePrimePlacement[] {
  if (design.kind !== 'inline' || !design.segments.includes("3'")) return [];
  const out: ThreePrimePlacement[] = [{ adapter: null, threeOnRead2: false }];
  if (adapter) out.push({ adapter, threeOnRead2: false });
  if (read2WithBarcodesOnRead1 && design.segments.includes("5'")) out.push({ adapter: null, threeOnRead2: true });
  return out;
}
