/**
 * The adapter sequences quality control looks for and trimming can pick automatically. The
 * 12-base probes are FastQC's, so adapter-content figures read the same way as a FastQC report;
 * the full sequences are what trimming removes.
 */

export interface KnownAdapter {
  name: string;
  /** The 12-base probe searched for in every read. */
  probe: string;
  /** The full 3' adapter sequence removed by trimming. */
  sequence: string;
  /** Other names a user may give it (lower case). */
  aliases: readonly string[];
  /**
   * The adapter read 2 runs into, when the kit's read 2 adapter differs (TruSeq: the
   * Illumina Universal adapter's mate); absent when both reads end in the same sequence.
   */
  read2Sequence?: string;
}

export const KNOWN_ADAPTERS: readonly KnownAdapter[] = [
  {
    name: 'Illumina Universal Adapter',
    probe: 'AGATCGGAAGAG',
    sequence: 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA',
    aliases: ['illumina', 'universal', 'truseq', 'illumina truseq', 'illumina universal'],
    read2Sequence: 'AGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT',
  },
  {
    name: 'Illumina Small RNA 3 Adapter',
    probe: 'TGGAATTCTCGG',
    sequence: 'TGGAATTCTCGGGTGCCAAGG',
    aliases: ['small rna', 'small rna 3', 'illumina small rna'],
  },
  {
    name: 'Illumina Small RNA 5 Adapter',
    probe: 'GATCGTCGGACT',
    sequence: 'GATCGTCGGACTGTAGAACTCTGAAC',
    aliases: ['small rna 5'],
  },
  {
    name: 'Nextera Transposase Sequence',
    probe: 'CTGTCTCTTATA',
    sequence: 'CTGTCTCTTATACACATCT',
    aliases: ['nextera', 'nextera transposase'],
  },
  { name: 'SOLID Small RNA Adapter', probe: 'CGCCTTGGCCGT', sequence: 'CGCCTTGGCCGT', aliases: ['solid'] },
];

export const PROBE_LENGTH = 12;
export const PROBE_MASK = (1 << (2 * PROBE_LENGTH)) - 1;

/** Two-bit codes of bases by byte value; -1 for anything that is not A, C, G or T. */
export const BASE_CODE: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  for (const [ch, code] of [
    ['A', 0],
    ['C', 1],
    ['G', 2],
    ['T', 3],
  ] as const) {
    t[ch.charCodeAt(0)] = code;
    t[ch.toLowerCase().charCodeAt(0)] = code;
  }
  return t;
})();

/** The 24-bit code of a 12-base probe. */
export function probeCode(probe: string): number {
  let code = 0;
  for (let i = 0; i < probe.length; i++) code = ((code << 2) | (BASE_CODE[probe.charCodeAt(i)] ?? 0)) & PROBE_MASK;
  return code;
}

/**
 * A 64K-entry filter on the low 16 bits of a probe code: a zero entry means no probe can match,
 * so the hot loop pays one typed-array read per base and compares full codes only on a hit.
 */
export function probeFilter(): { filter: Uint8Array; codes: Int32Array } {
  const filter = new Uint8Array(1 << 16);
  const codes = new Int32Array(KNOWN_ADAPTERS.length);
  KNOWN_ADAPTERS.forEach((a, i) => {
    const code = probeCode(a.probe);
    codes[i] = code;
    filter[code & 0xffff] = 1;
  });
  return { filter, codes };
}
