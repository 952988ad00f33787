/**
 * Where a 3' adapter starts in a read, for 3' barcodes that sit right before it (iCLIP and
 * Ultraplex's 5'+3' design: the 3' barcode is read only when the insert is short, so it is
 * always followed by the adapter). The rule is cutadapt's for a 3' adapter, as Ultraplex 1.2.10
 * runs it (its vendored `_align_new.pyx`, `Aligner.locate` with the BACK flags, indels allowed,
 * error rate 0.1, minimum overlap 1): of the alignments of the adapter (or, at the read's end, a
 * prefix of it) with errors at most 10% of the adapter part aligned, the one with the most
 * matches, then the fewest errors, then the leftmost; Ukkonen's cut-off as cutadapt has it. As in
 * Ultraplex (`--min_trim` 3), fewer than 3 bases cut count as no adapter. A read without the
 * adapter ends where it ends. One rule for the hot path (bytes), the detection (strings) and
 * the Lane screen's barcode check in the browser, so it lives in shared and uses no Node API.
 * The module-level DP columns and seed tables are scratch reused per call (no result depends on
 * them): the demultiplexer calls adapterStart once per read and must not allocate there.
 */
/** cutadapt's default maximum error rate; the fewest adapter bases cut that show the adapter (Ultraplex's --min_trim). */
export const ADAPTER_ERROR_RATE = 0.1;
export const ADAPTER_MIN_OVERLAP = 3;

/**
 * Adapters looked for when none is given: Illumina TruSeq / universal (also Ultraplex's default,
 * AGATCGGAAGAGCGGTTCAG), Nextera, and the Illumina small RNA 3' adapter (cutadapt's and
 * fastp's built-in lists start with the same bases).
 */
export const KNOWN_ADAPTERS = ['AGATCGGAAGAGC', 'CTGTCTCTTATACACATCT', 'TGGAATTCTCGG'] as const;

// One DP column (cost, origin, matches per adapter prefix length), reused: adapters are at most
// 100 bases (the CLI and the lane field check it).
let colCost = new Int32Array(128);
let colOrigin = new Int32Array(128);
let colMatches = new Int32Array(128);

/** 2-bit codes of A, C, G, T; 4 for any other byte (it matches no adapter base). */
const CODE = new Uint8Array(256).fill(4);
CODE[65] = 0;
CODE[67] = 1;
CODE[71] = 2;
CODE[84] = 3;

interface Seeds {
  adapter: Uint8Array;
  /** 6-mers of the adapter. */
  six: Uint8Array;
  /** 5-mers of its first 11 bases. */
  five: Uint8Array;
}
let seeds: Seeds | null = null;

function seedsOf(adapter: Uint8Array): Seeds {
  if (seeds?.adapter === adapter) return seeds;
  const six = new Uint8Array(4096);
  const five = new Uint8Array(1024);
  const mark = (into: Uint8Array, k: number, upTo: number) => {
    for (let p = 0; p + k <= upTo; p++) {
      let c = 0;
      for (let i = 0; i < k; i++) c = c * 4 + (CODE[adapter[p + i]!]! & 3);
      into[c] = 1;
    }
  };
  mark(six, 6, adapter.length);
  mark(five, 5, Math.min(11, adapter.length));
  return (seeds = { adapter, six, five });
}

/**
 * False when no alignment can cut 3 or more bases, so the alignment need not run. An alignment
 * of L adapter bases has at most L/10 errors, which split it into error-free pieces: for L >= 12
 * one of at least 6 bases, so the read holds a 6-mer of the adapter; shorter ones lie in the
 * read's last 12 bases: for L = 10 or 11 a 5-mer of the adapter's first 11 bases, for L = 3 to 9
 * (no error) the adapter's first L bases end the read. Adapters under 12 bases always align.
 */
function mayHoldAdapter(b: Uint8Array, start: number, end: number, adapter: Uint8Array): boolean {
  const m = adapter.length;
  if (m < 12) return true;
  const { six, five } = seedsOf(adapter);
  const tail = end - 12;
  let code = 0;
  let run = 0;
  for (let p = start; p < end; p++) {
    const c = CODE[b[p]!]!;
    if (c === 4) {
      run = 0;
      continue;
    }
    code = ((code << 2) | c) & 4095;
    run++;
    if (run >= 6 && six[code] === 1) return true;
    if (run >= 5 && p - 4 >= tail && five[code & 1023] === 1) return true;
  }
  for (let l = 3; l <= 9 && l <= end - start; l++) {
    let i = 0;
    while (i < l && b[end - l + i] === adapter[i]) i++;
    if (i === l) return true;
  }
  return false;
}

/** Start of the adapter in b[start, end), or `end` when the read has none (or under 3 bases of it). */
export function adapterStart(b: Uint8Array, start: number, end: number, adapter: Uint8Array): number {
  return mayHoldAdapter(b, start, end, adapter) ? alignAdapter(b, start, end, adapter) : end;
}

/** adapterStart without the shortcut: cutadapt's alignment on every read (tests compare the two). */
export function alignAdapter(b: Uint8Array, start: number, end: number, adapter: Uint8Array): number {
  const m = adapter.length;
  const n = end - start;
  if (m + 1 > colCost.length) {
    colCost = new Int32Array(m + 1);
    colOrigin = new Int32Array(m + 1);
    colMatches = new Int32Array(m + 1);
  }
  const cost = colCost;
  const origin = colOrigin;
  const matches = colMatches;
  const k = Math.floor(ADAPTER_ERROR_RATE * m);
  // Column 0: the alignment may start anywhere in the read, not within the adapter.
  for (let i = 0; i <= m; i++) {
    cost[i] = i;
    origin[i] = 0;
    matches[i] = 0;
  }
  let bestMatches = 0;
  let bestCost = m + n;
  let bestOrigin = 0;
  let last = Math.min(m, k + 1);
  for (let j = 1; j <= n; j++) {
    let dCost = cost[0]!;
    let dOrigin = origin[0]!;
    let dMatches = matches[0]!;
    origin[0] = j;
    const c = b[start + j - 1];
    for (let i = 1; i <= last; i++) {
      let co: number;
      let or: number;
      let ma: number;
      if (adapter[i - 1] === c) {
        co = dCost;
        or = dOrigin;
        ma = dMatches + 1;
      } else {
        const diag = dCost + 1;
        const del = cost[i]! + 1;
        const ins = cost[i - 1]! + 1;
        if (diag <= del && diag <= ins) {
          co = diag;
          or = dOrigin;
          ma = dMatches;
        } else if (ins <= del) {
          co = ins;
          or = origin[i - 1]!;
          ma = matches[i - 1]!;
        } else {
          co = del;
          or = origin[i]!;
          ma = matches[i]!;
        }
      }
      dCost = cost[i]!;
      dOrigin = origin[i]!;
      dMatches = matches[i]!;
      cost[i] = co;
      origin[i] = or;
      matches[i] = ma;
    }
    while (last >= 0 && cost[last]! > k) last--;
    if (last < m) last++;
    else {
      // The whole adapter aligned, ending at read base j.
      const co = cost[m]!;
      const ma = matches[m]!;
      if (co <= m * ADAPTER_ERROR_RATE && (ma > bestMatches || (ma === bestMatches && co < bestCost))) {
        bestMatches = ma;
        bestCost = co;
        bestOrigin = origin[m]!;
        if (co === 0 && ma === m) break;
      }
    }
  }
  // A prefix of the adapter at the read's end (cutadapt reads the last column as it stands).
  for (let i = 1; i <= m; i++) {
    const co = cost[i]!;
    const ma = matches[i]!;
    if (co <= i * ADAPTER_ERROR_RATE && (ma > bestMatches || (ma === bestMatches && co < bestCost))) {
      bestMatches = ma;
      bestCost = co;
      bestOrigin = origin[i]!;
    }
  }
  if (bestCost === m + n) return end;
  return n - bestOrigin >= ADAPTER_MIN_OVERLAP ? start + bestOrigin : end;
}

/** The read's bases before the adapter. */
export function cutAtAdapter(seq: string, adapter: Uint8Array): string {
  return seq.slice(0, adapterStart(latin1(seq), 0, seq.length, adapter));
}

/** A string's bytes, one per character (as Buffer.from(s, 'latin1'), which the browser lacks). */
export function latin1(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
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
