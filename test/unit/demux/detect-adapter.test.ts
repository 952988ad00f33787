/**
 * The known adapter found in the most sampled reads (adapter.ts) counts each read that holds its
 * first 12 bases once, as a search read by read does: reads holding it twice, at their very
 * start or end, or cut one base short; below 2% of the reads, none.
 */
import { describe, expect, it } from 'vitest';
import { KNOWN_ADAPTERS, detectAdapter } from '../../../src/shared/demux/adapter';
import { prng } from '../../helpers/fastq-generator';

/** The rule read by read, as it was written before the one search over all reads. */
function readByRead(seqs: string[]): string | null {
  let best: { adapter: string; n: number } | null = null;
  for (const adapter of KNOWN_ADAPTERS) {
    const probe = adapter.slice(0, 12);
    const n = seqs.filter((s) => s.includes(probe)).length;
    if (!best || n > best.n) best = { adapter, n };
  }
  return best && best.n > 0 && best.n >= 0.02 * seqs.length ? best.adapter : null;
}

function reads(count: number, seed: number, plant: (i: number) => string | null): string[] {
  const rand = prng(seed);
  const bases = (n: number) => Array.from({ length: n }, () => 'ACGT'[Math.floor(rand() * 4)]).join('');
  return Array.from({ length: count }, (_, i) => {
    const extra = plant(i);
    return extra === null ? bases(60) : extra.replace(/#/g, () => bases(1 + Math.floor(rand() * 20)));
  });
}

describe('detecting the 3 prime adapter in the sampled reads', () => {
  const [truseq, nextera, small] = KNOWN_ADAPTERS.map((a) => a.slice(0, 12));
  const cases: Record<string, string[]> = {
    none: reads(500, 1, () => null),
    'TruSeq in 5%': reads(1000, 2, (i) => (i % 20 === 0 ? `#${truseq}#` : null)),
    'twice in a read, at its start and end': reads(400, 3, (i) =>
      i % 10 === 0 ? `${truseq}#${truseq}` : i % 10 === 1 ? `#${nextera}` : null,
    ),
    'Nextera more often than TruSeq': reads(800, 4, (i) =>
      i % 9 === 0 ? `#${nextera}#` : i % 13 === 0 ? `#${truseq}${truseq}#` : null,
    ),
    'one base short': reads(300, 5, (i) => (i % 5 === 0 ? `#${small!.slice(0, 11)}` : null)),
    'under 2%': reads(1000, 6, (i) => (i % 60 === 0 ? `#${small}#` : null)),
    'no reads': [],
  };
  it.each(Object.keys(cases))('%s', (name) => {
    const seqs = cases[name]!;
    expect(detectAdapter(seqs)).toBe(readByRead(seqs));
  });

  it('finds the adapter the reads carry', () => {
    expect(detectAdapter(cases['Nextera more often than TruSeq']!)).toBe(KNOWN_ADAPTERS[1]);
    expect(detectAdapter(cases['TruSeq in 5%']!)).toBe(KNOWN_ADAPTERS[0]);
    expect(detectAdapter(cases['under 2%']!)).toBeNull();
  });
});
