/**
 * 3' quality trimming with the algorithm of BWA and cutadapt `-q CUTOFF`: walking back from the
 * 3' end, sum `cutoff - quality` and cut where that running sum is highest, stopping once it
 * goes negative. A single good base inside a bad tail does not stop the trimming.
 */

/** The read length to keep after 3' quality trimming (qualities Phred+33 at buf[start...]). */
export function qualityCut(buf: Uint8Array, start: number, len: number, cutoff: number): number {
  if (cutoff <= 0) return len;
  let stop = len;
  let sum = 0;
  let max = 0;
  for (let i = len - 1; i >= 0; i--) {
    sum += cutoff - (buf[start + i]! - 33);
    if (sum < 0) break;
    if (sum > max) {
      max = sum;
      stop = i;
    }
  }
  return stop;
}
