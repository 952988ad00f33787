/**
 * Pools of random bases and of binned NovaSeq qualities (F, :, , and #, as a NovaSeq writes
 * them) that the lane generators slice reads from: generating hundreds of millions of bases
 * one by one is slow, and gzip should see realistic entropy. Each pool takes 2^20 draws of
 * `rand`, bases first: a generator's seeded output depends on that order.
 */
const BASES = 'ACGT';
const QUALITIES = 'FFFFFFFFFFFFFFFFFF:::,#';

export function readPools(rand: () => number): { body(n: number): string; quality(n: number): string } {
  const pool = Array.from({ length: 1 << 20 }, () => BASES[Math.floor(rand() * 4)]).join('');
  const qualPool = Array.from({ length: 1 << 20 }, () => QUALITIES[Math.floor(rand() * QUALITIES.length)]).join('');
  const slice = (from: string, n: number) => {
    const at = Math.floor(rand() * (from.length - n));
    return from.slice(at, at + n);
  };
  return { body: (n) => slice(pool, n), quality: (n) => slice(qualPool, n) };
}
