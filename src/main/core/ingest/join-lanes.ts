/**
 * One sample per sample, whatever the lanes: BCL Convert writes a file per sample, read and
 * lane (`S1_S1_L001_R1_001.fastq.gz`, `..._L002_...`); the pairs of one sample are joined into
 * one read 1 and one read 2, in lane order. gzip members concatenate into a valid .gz, so the
 * upload sends the lane files one after the other and nothing is recompressed.
 */
import type { PairedSample } from '../../../shared/fastq-naming';

export interface JoinedSample<F> {
  name: string;
  /** The lanes joined, ascending; [] when the names carry no lane. */
  lanes: number[];
  read1: F[];
  read2: F[] | null;
}

/** Joins per-lane pairs of the same sample; `mixed` lists samples whose lanes disagree on read 2. */
export function joinLanes<F>(samples: readonly PairedSample<F>[]): { joined: JoinedSample<F>[]; mixed: string[] } {
  const bySample = new Map<string, PairedSample<F>[]>();
  for (const s of samples) {
    // pairFastqs names a multi-lane sample's pairs `<sample>_L00n`; the sample is the stem.
    const name = s.lane !== null ? s.name.replace(/_L\d{3}$/, '') : s.name;
    bySample.set(name, [...(bySample.get(name) ?? []), s]);
  }
  const joined: JoinedSample<F>[] = [];
  const mixed: string[] = [];
  for (const [name, parts] of bySample) {
    const paired = parts.filter((p) => p.read2 !== null);
    if (parts.length > 1 && paired.length !== 0 && paired.length !== parts.length) {
      // Some lanes have read 2 and some do not: joining would pair reads wrongly.
      mixed.push(name);
      for (const p of parts)
        joined.push({
          name: p.name,
          lanes: p.lane === null ? [] : [p.lane],
          read1: [p.read1],
          read2: p.read2 ? [p.read2] : null,
        });
      continue;
    }
    parts.sort((a, b) => (a.lane ?? 0) - (b.lane ?? 0));
    joined.push({
      name,
      lanes: parts.filter((p) => p.lane !== null).map((p) => p.lane!),
      read1: parts.map((p) => p.read1),
      read2: paired.length ? parts.map((p) => p.read2!) : null,
    });
  }
  // In the pairs' order (pairFastqs: sample-sheet order where the names carry it, else by name).
  return { joined, mixed };
}
