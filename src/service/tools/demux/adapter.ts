/**
 * Where a 3' adapter starts in a read, for 3' barcodes that sit right before it (iCLIP and
 * Ultraplex's 5'+3' design: the 3' barcode is read only when the insert is short, so it is
 * always followed by the adapter). The rule is cutadapt's for a 3' adapter without indels: the
 * leftmost position where the adapter (or, at the read's end, its first 3 or more bases) matches
 * with at most 10% mismatches (cutadapt's default error rate, rounded down). A read without the
 * adapter ends where it ends. One rule for the hot path (bytes) and the detection (strings).
 */

/** cutadapt's default maximum error rate and minimum overlap for a 3' adapter. */
export const ADAPTER_ERROR_RATE = 0.1;
export const ADAPTER_MIN_OVERLAP = 3;

/**
 * Adapters looked for when none is given: Illumina TruSeq / universal (also Ultraplex's default,
 * AGATCGGAAGAGCGGTTCAG), Nextera, and the Illumina small RNA 3' adapter (cutadapt's and
 * fastp's built-in lists start with the same bases).
 */
export const KNOWN_ADAPTERS = ['AGATCGGAAGAGC', 'CTGTCTCTTATACACATCT', 'TGGAATTCTCGG'] as const;

/** Start of the adapter in b[start, end), or `end` when the read has none. */
export function adapterStart(b: Uint8Array, start: number, end: number, adapter: Uint8Array): number {
  const a = adapter.length;
  for (let p = start; p <= end - ADAPTER_MIN_OVERLAP; p++) {
    const overlap = end - p < a ? end - p : a;
    const allowed = Math.floor(overlap * ADAPTER_ERROR_RATE);
    let mm = 0;
    for (let i = 0; i < overlap; i++) {
      if (b[p + i] !== adapter[i] && ++mm > allowed) break;
    }
    if (mm <= allowed) return p;
  }
  return end;
}

/** The read's bases before the adapter. */
export function cutAtAdapter(seq: string, adapter: Uint8Array): string {
  const b = Buffer.from(seq, 'latin1');
  return seq.slice(0, adapterStart(b, 0, b.length, adapter));
}

/**
 * The known adapter found whole (its first 12 bases, exactly) in the most reads, when at least
 * 2% of them carry it; null when none does.
 */
export function detectAdapter(seqs: readonly string[]): string | null {
  let best: { adapter: string; n: number } | null = null;
  // One search through all the reads at once, a read counted once (a probe has no line end, so
  // a match never spans two reads): a tenth of the cost of a search per read.
  const all = seqs.join('\n');
  for (const adapter of KNOWN_ADAPTERS) {
    const probe = adapter.slice(0, 12);
    let n = 0;
    for (let at = all.indexOf(probe); at >= 0;) {
      n++;
      const next = all.indexOf('\n', at + probe.length);
      at = next < 0 ? -1 : all.indexOf(probe, next + 1);
    }
    if (!best || n > best.n) best = { adapter, n };
  }
  return best && best.n > 0 && best.n >= 0.02 * seqs.length ? best.adapter : null;
}
