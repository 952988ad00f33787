/**
 * BarcodeIndex builds each variant's code by arithmetic; it must give the table the variants
 * spelled out as strings gave (the reference below, the constructor as it was), entry for entry,
 * including which codes two barcodes make ambiguous: that depends on the order of the puts.
 */
import { describe, expect, it } from 'vitest';
import { BarcodeIndex, encode, UnknownBarcodes } from '../../../src/service/tools/demux/barcode-index';
import { prng as random } from '../../helpers/prng';

const LETTERS = 'ACGTN';
const SHIFT = 16;

/** The string-spelled table, as a Map of every code it holds. */
function reference(barcodes: string[], mismatches: number): Map<number, number> {
  const table = new Map<number, number>();
  const put = (code: number, value: number) => {
    const old = table.get(code) ?? 0;
    let next = value;
    if (old === -1) {
      if (value >>> SHIFT !== 0) return;
    } else if (old !== 0) {
      const oldD = old >>> SHIFT;
      const newD = value >>> SHIFT;
      if ((old & 0xffff) === (value & 0xffff)) next = oldD <= newD ? old : value;
      else if (oldD < newD) next = old;
      else if (oldD === newD) next = -1;
    }
    table.set(code, next);
  };
  barcodes.forEach((b, i) => {
    const key = i + 1;
    put(encode(b), key);
    if (mismatches < 1) return;
    for (let p = 0; p < b.length; p++) {
      for (const x of LETTERS) {
        if (x === b[p]) continue;
        const one = b.slice(0, p) + x + b.slice(p + 1);
        put(encode(one), key | (1 << SHIFT));
        if (mismatches < 2) continue;
        for (let q = p + 1; q < b.length; q++) {
          for (const y of LETTERS) {
            if (y === b[q]) continue;
            put(encode(one.slice(0, q) + y + one.slice(q + 1)), key | (2 << SHIFT));
          }
        }
      }
    }
  });
  return table;
}

function same(barcodes: string[], length: number, mismatches: number): void {
  const ours = new BarcodeIndex(barcodes, length, mismatches);
  const ref = reference(barcodes, mismatches);
  for (const [code, entry] of ref) expect(ours.lookup(code), `code ${code}`).toBe(entry);
  // Nothing beyond the reference's codes: count the table's filled entries (direct tables).
  const filled = ours.table ? ours.table.reduce((n, v) => n + (v !== 0 ? 1 : 0), 0) : ref.size;
  expect(filled).toBe([...ref.values()].filter((v) => v !== 0).length);
}

describe('BarcodeIndex', () => {
  it('gives the string-spelled table on random sheets, close barcodes included', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const length = 4 + Math.floor(rnd() * 6); // 4 to 9: direct tables
      // Few distinct bases in few positions: many barcodes within two of each other, so that
      // ambiguous codes and their order matter.
      const alphabet = seed % 5 === 0 ? 'ACGTNacgt' : 'ACGT';
      const barcodes = Array.from({ length: 3 + Math.floor(rnd() * 20) }, () =>
        Array.from({ length }, (_, p) => (p < length - 3 ? 'A' : alphabet[Math.floor(rnd() * alphabet.length)]!)).join(
          '',
        ),
      );
      for (const m of [0, 1, 2]) same(barcodes, length, m);
    }
  });

  it('gives the string-spelled table for long barcodes (a Map)', () => {
    const rnd = random(99);
    const barcodes = Array.from({ length: 12 }, () =>
      Array.from({ length: 12 }, () => 'ACGT'[Math.floor(rnd() * 4)]!).join(''),
    );
    barcodes.push(`${barcodes[0]!.slice(0, 11)}${barcodes[0]![11] === 'A' ? 'C' : 'A'}`); // one apart
    for (const m of [1, 2]) same(barcodes, 12, m);
  });
});

describe('UnknownBarcodes.top', () => {
  it('gives what a stable sort of every code by count gives, ties in first-seen order', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = random(seed);
      const unknown = new UnknownBarcodes((code) => String(code));
      const seen: number[] = [];
      const counts = new Map<number, number>();
      // Few distinct counts, so that ties at the cut are common.
      for (let i = 0; i < 400; i++) {
        const code = Math.floor(rnd() * (20 + seed * 3));
        unknown.add(code);
        if (!counts.has(code)) seen.push(code);
        counts.set(code, (counts.get(code) ?? 0) + 1);
      }
      const expected = seen
        .map((code) => ({ barcode: String(code), count: counts.get(code)! }))
        .sort((a, b) => b.count - a.count);
      for (const n of [1, 5, 20, 1000]) expect(unknown.top(n)).toEqual(expected.slice(0, n));
    }
  });
});
