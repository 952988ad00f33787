/**
 * O(1) barcode assignment. Each barcode is a number in base 5 (A, C, G, T, anything else as N),
 * and every variant within the allowed mismatches is precomputed into a table: a typed array
 * indexed by the code for short barcodes, a Map beyond. A read's barcode is then one table
 * lookup, never a comparison against each sample.
 */

/** Base-5 digit of each byte: A/a 0, C/c 1, G/g 2, T/t 3, anything else 4 (N). */
export const BASE5 = new Uint8Array(256).fill(4);
for (const [ch, v] of [
  ['A', 0],
  ['C', 1],
  ['G', 2],
  ['T', 3],
] as const) {
  BASE5[ch.charCodeAt(0)] = v;
  BASE5[ch.toLowerCase().charCodeAt(0)] = v;
}

const LETTERS = 'ACGTN';
/** Barcodes up to this length use a direct typed-array table (5^9 entries, 7.8 MB). */
const DIRECT_MAX_LENGTH = 9;
/** Codes stay exact integers up to 5^22. */
export const MAX_BARCODE_LENGTH = 22;
const AMBIGUOUS = -1;
const MISMATCH_FLAG = 0x10000;

/** Encodes an ACGTN string as its base-5 code. */
export function encode(seq: string): number {
  let code = 0;
  for (let i = 0; i < seq.length; i++) code = code * 5 + (BASE5[seq.charCodeAt(i)] as number);
  return code;
}

/** Decodes a base-5 code of the given length back to ACGTN. */
export function decode(code: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = LETTERS[code % 5] + out;
    code = Math.floor(code / 5);
  }
  return out;
}

/** The lookup table of one lane: code -> sample, with one-mismatch variants marked. */
export class BarcodeIndex {
  private readonly direct: Int32Array | null;
  private readonly map: Map<number, number> | null;

  /** barcodes: one per sample (ACGT, dual indexes without the "+"), all of `length` bases. */
  constructor(
    barcodes: readonly string[],
    readonly length: number,
    mismatches: number,
  ) {
    if (length > MAX_BARCODE_LENGTH)
      throw new Error(`Barcodes longer than ${MAX_BARCODE_LENGTH} bases are not supported`);
    this.direct = length <= DIRECT_MAX_LENGTH ? new Int32Array(5 ** length) : null;
    this.map = this.direct ? null : new Map();
    barcodes.forEach((b, sample) => this.put(encode(b), sample + 1));
    if (mismatches > 0) {
      barcodes.forEach((b, sample) => {
        for (let i = 0; i < b.length; i++) {
          for (const letter of LETTERS) {
            if (letter === b[i]) continue;
            this.put(encode(b.slice(0, i) + letter + b.slice(i + 1)), (sample + 1) | MISMATCH_FLAG);
          }
        }
      });
    }
  }

  private get(code: number): number {
    return this.direct ? (this.direct[code] as number) : (this.map!.get(code) ?? 0);
  }

  private put(code: number, value: number): void {
    const old = this.get(code);
    // An exact barcode always wins; a variant reachable from two samples assigns neither.
    let next = value;
    if (old !== 0 && (old & MISMATCH_FLAG) === 0 && old !== AMBIGUOUS) next = old;
    else if (old !== 0 && (value & MISMATCH_FLAG) !== 0 && old !== value) next = AMBIGUOUS;
    if (this.direct) this.direct[code] = next;
    else this.map!.set(code, next);
  }

  /** The table entry for a code: 0 none, -1 ambiguous, else sample+1 with MISMATCH_FLAG for a variant. */
  lookup(code: number): number {
    return this.direct ? (this.direct[code] as number) : (this.map!.get(code) ?? 0);
  }
}

/** Sample index (0-based) of a table entry, or -1 for none or ambiguous. */
export function sampleOf(entry: number): number {
  return entry > 0 ? (entry & 0xffff) - 1 : -1;
}

/** True when a table entry was reached through a mismatch. */
export function isMismatch(entry: number): boolean {
  return entry > 0 && (entry & MISMATCH_FLAG) !== 0;
}

/** Counts barcodes that matched no sample, up to a bound on distinct codes (memory stays flat). */
export class UnknownBarcodes {
  private readonly counts = new Map<number, number>();
  constructor(
    private readonly length: number,
    private readonly maxDistinct = 100_000,
  ) {}

  add(code: number): void {
    const c = this.counts.get(code);
    if (c !== undefined) this.counts.set(code, c + 1);
    else if (this.counts.size < this.maxDistinct) this.counts.set(code, 1);
  }

  /** The most frequent unknown barcodes. */
  top(n: number): Array<{ barcode: string; count: number }> {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([code, count]) => ({ barcode: decode(code, this.length), count }));
  }
}
