/**
 * Picks the adapter to trim when none is given: the known adapter whose 12-base probe occurs in
 * the most of the first 100,000 reads, provided it occurs in at least 0.1% of them (and in 5
 * reads); otherwise no adapter is trimmed (quality trimming still runs).
 */
import { KNOWN_ADAPTERS, type KnownAdapter } from '../qc/known-adapters';
import { FastqCursor } from './fastq-cursor';

const SAMPLE = 100_000;

export interface AdapterChoice {
  adapter: KnownAdapter | null;
  /** Reads of the sample that contain each adapter's probe. */
  counts: Record<string, number>;
  sampled: number;
}

/** Detects the most frequent known adapter in the first reads of a FASTQ file. */
export async function detectAdapter(path: string): Promise<AdapterChoice> {
  const probes = KNOWN_ADAPTERS.map((a) => Buffer.from(a.probe, 'latin1'));
  const hits = new Array<number>(KNOWN_ADAPTERS.length).fill(0);
  const cursor = new FastqCursor(path);
  let sampled = 0;
  try {
    for (let r = await cursor.next(); r && sampled < SAMPLE; r = await cursor.next()) {
      sampled++;
      const seq = r.buf.subarray(r.seqStart, r.seqStart + r.length);
      probes.forEach((p, i) => {
        if (seq.indexOf(p) >= 0) hits[i]!++;
      });
    }
  } finally {
    await cursor.close();
  }
  const best = hits.reduce((b, n, i) => (n > hits[b]! ? i : b), 0);
  const enough = hits[best]! >= Math.max(5, sampled * 0.001);
  return {
    adapter: enough ? KNOWN_ADAPTERS[best]! : null,
    counts: Object.fromEntries(KNOWN_ADAPTERS.map((a, i) => [a.name, hits[i]!])),
    sampled,
  };
}
