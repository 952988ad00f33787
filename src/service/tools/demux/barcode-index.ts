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

/** Bits above the key in a table entry: the mismatch count of the variant (0 to 2). */
export const MISMATCH_SHIFT = 16;
const KEY_MASK = 0xffff;

/**
 * The lookup table of one barcode group (one layout, one length): code -> key, with the
 * mismatch count of each variant. A variant reachable from two keys at the same distance
 * assigns neither; the sheet rules make that impossible within the allowed mismatches, and the
 * table keeps the rule anyway.
 */
export class BarcodeIndex {
  private readonly direct: Int32Array | null;
  private readonly map: Map<number, number> | null;

  /** barcodes: ACGT strings of `length` bases; keys: the id each one stands for (default its position). */
  constructor(
    barcodes: readonly string[],
    readonly length: number,
    mismatches: number,
    keys: readonly number[] = barcodes.map((_, i) => i),
  ) {
    if (length > MAX_BARCODE_LENGTH)
      throw new Error(`Barcodes longer than ${MAX_BARCODE_LENGTH} bases are not supported`);
    this.direct = length <= DIRECT_MAX_LENGTH ? new Int32Array(5 ** length) : null;
    this.map = this.direct ? null : new Map();
    // Each variant's code from the barcode's by arithmetic, in the order the variants were once
    // spelled out as strings (the order decides which ambiguous codes stay ambiguous, see put):
    // building them as strings was half of a 500,000-read lane's set-up.
    barcodes.forEach((b, i) => {
      const key = keys[i]! + 1;
      const weight = Array.from({ length: b.length }, (_, p) => 5 ** (b.length - 1 - p));
      const code = encode(b);
      this.put(code, key);
      if (mismatches < 1) return;
      for (let p = 0; p < b.length; p++) {
        const dp = BASE5[b.charCodeAt(p)]!;
        for (const x of LETTERS) {
          if (x === b[p]) continue;
          const one = code + (BASE5[x.charCodeAt(0)]! - dp) * weight[p]!;
          this.put(one, key | (1 << MISMATCH_SHIFT));
          if (mismatches < 2) continue;
          for (let q = p + 1; q < b.length; q++) {
            const dq = BASE5[b.charCodeAt(q)]!;
            for (const y of LETTERS) {
              if (y === b[q]) continue;
              this.put(one + (BASE5[y.charCodeAt(0)]! - dq) * weight[q]!, key | (2 << MISMATCH_SHIFT));
            }
          }
        }
      }
    });
  }

  private put(code: number, value: number): void {
    const old = this.lookup(code);
    let next = value;
    if (old === AMBIGUOUS) {
      if (value >>> MISMATCH_SHIFT !== 0) return; // an exact barcode still wins below
    } else if (old !== 0) {
      const oldD = old >>> MISMATCH_SHIFT;
      const newD = value >>> MISMATCH_SHIFT;
      if ((old & KEY_MASK) === (value & KEY_MASK)) next = oldD <= newD ? old : value;
      else if (oldD < newD) next = old;
      else if (oldD === newD) next = AMBIGUOUS;
    }
    if (this.direct) this.direct[code] = next;
    else this.map!.set(code, next);
  }

  /** The whole table by code, when it is one array (barcodes of up to 9 bases); else null. */
  get table(): Int32Array | null {
    return this.direct;
  }

  /** The table entry for a code: 0 none, -1 ambiguous, else (key+1) | (mismatches << 16). */
  lookup(code: number): number {
    return this.direct ? (this.direct[code] as number) : (this.map!.get(code) ?? 0);
  }
}

/** Key (0-based) of a table entry, or -1 for none or ambiguous. */
export function keyOf(entry: number): number {
  return entry > 0 ? (entry & KEY_MASK) - 1 : -1;
}

/** Mismatches of a table entry. */
export function mismatchesOf(entry: number): number {
  return entry > 0 ? entry >>> MISMATCH_SHIFT : 0;
}

/** Counts barcodes that matched no sample, up to a bound on distinct codes (memory stays flat). */
export class UnknownBarcodes {
  private readonly counts = new Map<number, number>();
  constructor(
    private readonly decodeKey: (code: number) => string,
    private readonly maxDistinct = 100_000,
  ) {}

  get distinct(): number {
    return this.counts.size;
  }

  add(code: number): void {
    const c = this.counts.get(code);
    if (c !== undefined) this.counts.set(code, c + 1);
    else if (this.counts.size < this.maxDistinct) this.counts.set(code, 1);
  }

  /**
   * The most frequent unknown barcodes, ties in the order they were first seen (as a stable sort
   * of all of them would give). Chosen in one pass: a lane's 1% of undetermined reads carry
   * thousands of distinct codes, and sorting them all was 2 ms of a 500,000-read lane's end.
   */
  top(n: number): Array<{ barcode: string; count: number }> {
    const best: Array<[code: number, count: number]> = [];
    for (const entry of this.counts) {
      if (best.length === n && entry[1] <= best[n - 1]![1]) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]![1] < entry[1]) at--;
      best.splice(at, 0, entry);
      if (best.length > n) best.pop();
    }
    return best.map(([code, count]) => ({ barcode: this.decodeKey(code), count }));
  }
}
