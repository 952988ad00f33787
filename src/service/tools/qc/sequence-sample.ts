/**
 * The sequence sample behind the duplication estimate and the overrepresented sequences: like
 * FastQC, the first 100,000 reads are hashed (reads longer than 75 bases by their first 50, so
 * that sequencing errors towards the 3' end do not hide duplicates). Hashing every read of a
 * large file would cost more than all the other statistics together.
 */
import { KNOWN_ADAPTERS } from './known-adapters';

export const SAMPLE_READS = 100_000;
const TRUNCATE_ABOVE = 75;
const TRUNCATE_TO = 50;

/** The hashed reads of one chunk, in file order. */
export interface SampleChunk {
  keys: number[];
  /** The sequence behind each key, first occurrence in this chunk. */
  seqs: Map<number, string>;
}

/** Collects keys of reads in file order, up to `limit` reads. */
export class SampleCollector implements SampleChunk {
  keys: number[] = [];
  seqs = new Map<number, string>();
  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.keys.length >= this.limit;
  }

  /** Hashes the sequence at buf[start, start + length) into a 52-bit key. */
  add(buf: Uint8Array, start: number, length: number): void {
    const n = length > TRUNCATE_ABOVE ? TRUNCATE_TO : length;
    let h1 = 0x811c9dc5;
    let h2 = n;
    for (let i = 0; i < n; i++) {
      const b = buf[start + i]!;
      h1 = Math.imul(h1 ^ b, 0x01000193);
      h2 = Math.imul(h2 + b, 0x5bd1e995) ^ (h2 >>> 15);
    }
    const key = (h1 >>> 0) * 0x100000 + ((h2 >>> 12) & 0xfffff);
    this.keys.push(key);
    if (!this.seqs.has(key)) this.seqs.set(key, Buffer.from(buf.buffer, buf.byteOffset + start, n).toString('latin1'));
  }
}

export interface DuplicationResult {
  sampled_reads: number;
  distinct_sequences: number;
  /** Percent of the sample that would remain after removing duplicates (FastQC's figure). */
  percent_remaining_if_deduplicated: number;
  /** Fraction of sampled reads that are copies of an earlier read. */
  duplicate_rate: number;
  /** Percent of sampled reads by how many copies their sequence has. */
  levels: Array<{ copies: string; percent_of_reads: number }>;
}

export interface OverrepresentedSequence {
  sequence: string;
  count: number;
  percent: number;
  possible_source: string;
}

const LEVELS: Array<[string, number, number]> = [
  ['1', 1, 1],
  ['2', 2, 2],
  ['3', 3, 3],
  ['4', 4, 4],
  ['5', 5, 5],
  ['6-10', 6, 10],
  ['11-50', 11, 50],
  ['51-100', 51, 100],
  ['101-1000', 101, 1000],
  ['>1000', 1001, Infinity],
];

function possibleSource(seq: string): string {
  for (const a of KNOWN_ADAPTERS) {
    const probe = a.sequence.slice(0, 20);
    if (seq.includes(probe) || a.sequence.includes(seq.slice(0, Math.min(seq.length, 20)))) return a.name;
  }
  return 'No Hit';
}

/** Duplication levels and overrepresented sequences (over 0.1% of the sample) from chunks in file order. */
export function summariseSample(chunks: SampleChunk[]): {
  duplication: DuplicationResult;
  overrepresented: OverrepresentedSequence[];
} {
  const counts = new Map<number, number>();
  const seqs = new Map<number, string>();
  let total = 0;
  outer: for (const chunk of chunks) {
    for (const key of chunk.keys) {
      if (total >= SAMPLE_READS) break outer;
      total++;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!seqs.has(key)) seqs.set(key, chunk.seqs.get(key) ?? '');
    }
  }
  const byLevel = new Array<number>(LEVELS.length).fill(0);
  for (const n of counts.values()) {
    const i = LEVELS.findIndex(([, lo, hi]) => n >= lo && n <= hi);
    byLevel[i]! += n;
  }
  const distinct = counts.size;
  const duplication: DuplicationResult = {
    sampled_reads: total,
    distinct_sequences: distinct,
    percent_remaining_if_deduplicated: total ? (100 * distinct) / total : 100,
    duplicate_rate: total ? (total - distinct) / total : 0,
    levels: LEVELS.map(([copies], i) => ({ copies, percent_of_reads: total ? (100 * byLevel[i]!) / total : 0 })),
  };
  // FastQC's rule (OverRepresentedSeqs): any sequence above 0.1% of the reads, however few they are.
  const threshold = total * 0.001;
  const overrepresented = [...counts.entries()]
    .filter(([, n]) => n > threshold)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([key, n]) => {
      const sequence = seqs.get(key) ?? '';
      return { sequence, count: n, percent: (100 * n) / total, possible_source: possibleSource(sequence) };
    });
  return { duplication, overrepresented };
}
