/**
 * Deterministic FASTQ generator for the quality-control and trimming tests and the QC benchmark:
 * seeded random reads with varied lengths, N bases, the whole Phred+33 quality range, optional
 * adapter read-through and duplicated reads.
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { prng } from './prng';

export interface FastqSpec {
  reads: number;
  /** Fixed length, or [min, max] inclusive. */
  length?: number | [number, number];
  seed?: number;
  /** Probability that a base is N. */
  nRate?: number;
  /** Adapter inserted at a random position (the read runs through it) in this fraction of reads. */
  adapter?: { sequence: string; rate: number };
  /** Fraction of reads that repeat an earlier read's sequence. */
  duplicateRate?: number;
  /** Lowest and highest Phred score used (default 2..41). */
  quality?: [number, number];
  /** Give some reads a low-quality 3' tail (for quality trimming). */
  lowQualityTails?: boolean;
  name?: string;
}

// Re-exported: the generator's callers take their PRNG from here.
export { prng };

const BASES = 'ACGT';

/** Generates records one at a time. */
export function* fastqRecords(spec: FastqSpec): Generator<string> {
  const rnd = prng(spec.seed ?? 1);
  const [lo, hi] = Array.isArray(spec.length) ? spec.length : [spec.length ?? 100, spec.length ?? 100];
  const [qlo, qhi] = spec.quality ?? [2, 41];
  const earlier: string[] = [];
  for (let r = 0; r < spec.reads; r++) {
    const len = lo + Math.floor(rnd() * (hi - lo + 1));
    let seq: string;
    if (spec.duplicateRate && earlier.length && rnd() < spec.duplicateRate) {
      seq = earlier[Math.floor(rnd() * earlier.length)]!;
    } else {
      let s = '';
      for (let i = 0; i < len; i++) s += spec.nRate && rnd() < spec.nRate ? 'N' : BASES[Math.floor(rnd() * 4)];
      if (spec.adapter && rnd() < spec.adapter.rate) {
        const at = Math.floor(rnd() * len);
        s = (s.slice(0, at) + spec.adapter.sequence + s).slice(0, len);
      }
      seq = s;
      if (earlier.length < 1000) earlier.push(seq);
    }
    let qual = '';
    const tail = spec.lowQualityTails && rnd() < 0.3 ? Math.floor(rnd() * seq.length * 0.4) : 0;
    for (let i = 0; i < seq.length; i++) {
      const q = i >= seq.length - tail ? 2 + Math.floor(rnd() * 10) : qlo + Math.floor(rnd() * (qhi - qlo + 1));
      qual += String.fromCharCode(33 + q);
    }
    yield `@${spec.name ?? 'read'}${r + 1} 1:N:0:1\n${seq}\n+\n${qual}\n`;
  }
}

/** The whole file as a string (small inputs). */
export function fastqText(spec: FastqSpec): string {
  return [...fastqRecords(spec)].join('');
}

/** Writes a FASTQ file (gzip when the path ends in .gz). */
export function writeFastq(path: string, spec: FastqSpec): void {
  const text = fastqText(spec);
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
}

/** Streams a large plain FASTQ file to disk without holding it in memory. */
export async function writeLargeFastq(path: string, spec: FastqSpec): Promise<void> {
  const out = createWriteStream(path);
  let batch: string[] = [];
  for (const rec of fastqRecords(spec)) {
    batch.push(rec);
    if (batch.length === 5000) {
      if (!out.write(batch.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
      batch = [];
    }
  }
  out.end(batch.join(''));
  await new Promise<void>((r) => out.on('finish', () => r()));
}
