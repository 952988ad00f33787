/**
 * Where a 3' adapter starts in a read, with cutadapt's rules for `-a ADAPTER --no-indels`: the
 * adapter may lie wholly inside the read or run off its 3' end (its prefix matching the read's
 * suffix, at least `minOverlap` bases); the errors allowed are `floor(errorRate * overlap)`
 * mismatches; N in the adapter matches anything, N in the read is a mismatch. Among valid
 * matches the one with the best score (matches minus mismatches) wins, the leftmost on a tie.
 */

const N = 78;
const n = 110;

export interface AdapterMatchOptions {
  errorRate: number;
  minOverlap: number;
}

/** Upper-case ASCII bytes of an adapter sequence. */
export function adapterBytes(sequence: string): Uint8Array {
  return Buffer.from(sequence.toUpperCase(), 'latin1');
}

/** The read length to keep: the adapter's start, or `len` when there is no match. */
export function adapterCut(
  buf: Uint8Array,
  start: number,
  len: number,
  adapter: Uint8Array,
  opts: AdapterMatchOptions,
): number {
  const alen = adapter.length;
  let best = len;
  let bestScore = -Infinity;
  for (let j = 0; j <= len - opts.minOverlap; j++) {
    const overlap = Math.min(alen, len - j);
    const allowed = Math.floor(opts.errorRate * overlap);
    if (overlap < bestScore) break;
    let errors = 0;
    for (let i = 0; i < overlap; i++) {
      const a = adapter[i]!;
      if (a === N) continue;
      let r = buf[start + j + i]!;
      if (r >= 97) r -= 32;
      if (r !== a || r === N || r === n) {
        if (++errors > allowed) break;
      }
    }
    if (errors > allowed) continue;
    const score = overlap - 2 * errors;
    if (score > bestScore) {
      bestScore = score;
      best = j;
    }
  }
  return best;
}
