/**
 * Where the 3' adapter starts: cutadapt's 3' alignment as Ultraplex 1.2.10 runs it (indels
 * allowed, most matches first), and fewer than 3 bases cut counting as no adapter (Ultraplex's
 * --min_trim). Ultraplex gives the same reads per sample on generated lanes
 * (demux-ultraplex-*.test.ts); these are the single reads behind the rule.
 */
import { describe, expect, it } from 'vitest';
import { adapterStart, alignAdapter, cutAtAdapter } from '../../../src/shared/demux/adapter';
import { prng } from '../../helpers/fastq-generator';

const P3 = Buffer.from('AGATCGGAAGAGCGGTTCAG', 'latin1');
const INSERT = 'CCTTGCACTTGCCTTCCTTGCTAC';
const at = (read: string) => adapterStart(Buffer.from(read, 'latin1'), 0, read.length, P3);

describe('adapterStart', () => {
  it('finds the whole adapter, and one with a substitution, an inserted or a deleted base', () => {
    expect(at(`${INSERT}AGATCGGAAGAGCGGTTCAGTTTT`)).toBe(INSERT.length);
    expect(at(`${INSERT}AGATCGCAAGAGCGGTTCAGTTTT`)).toBe(INSERT.length);
    expect(at(`${INSERT}AGATTCGGAAGAGCGGTTCAGTTT`)).toBe(INSERT.length);
    expect(at(`${INSERT}AGATCGAAGAGCGGTTCAGTTTTT`)).toBe(INSERT.length);
  });

  it('finds a prefix of the adapter at the read end, from 3 bases on', () => {
    expect(at(`${INSERT}AGATCGGAAG`)).toBe(INSERT.length);
    expect(at(`${INSERT}AGA`)).toBe(INSERT.length);
    // One or two bases cut show nothing (Ultraplex cuts them but reads no 3' barcode).
    expect(at(`${INSERT}AG`)).toBe(INSERT.length + 2);
    expect(cutAtAdapter(`${INSERT}A`, P3)).toBe(`${INSERT}A`);
  });

  it('prefers the alignment with the most matches to the leftmost one', () => {
    // The read ends in AATCGGAAGA: the adapter with G deleted (9 matches) beats AGA alone (3).
    const read = `${INSERT}TTTTAATCGGAAGA`;
    expect(at(read)).toBe(read.length - 10);
  });

  it('answers the end for a read without the adapter', () => {
    expect(at(INSERT)).toBe(INSERT.length);
  });

  it('skips the alignment only where it could find nothing: the same answers on 60,000 reads', () => {
    const rand = prng(19);
    const base = () => 'ACGTN'[rand() < 0.01 ? 4 : Math.floor(rand() * 4)]!;
    const bases = (n: number) => Array.from({ length: n }, base).join('');
    for (const a of ['AGATCGGAAGAGCGGTTCAG', 'AGATCGGAAGAGCACACGTCTGAA', 'AGATCGGAAGAGC', 'TGGAATTCTCGG']) {
      const adapter = Buffer.from(a, 'latin1');
      for (let r = 0; r < 15_000; r++) {
        // Random reads, some with the adapter (or its start) after an insert, with up to 3 errors.
        let tail = rand() < 0.5 ? a.slice(0, 1 + Math.floor(rand() * a.length)) : '';
        for (let e = Math.floor(rand() * 4); e > 0 && tail.length > 0; e--) {
          const at = Math.floor(rand() * tail.length);
          const kind = Math.floor(rand() * 3);
          tail = tail.slice(0, at) + (kind === 2 ? '' : base()) + tail.slice(kind === 1 ? at : at + 1);
        }
        const read = Buffer.from(
          (bases(Math.floor(rand() * 100)) + tail + bases(Math.floor(rand() * 8))).slice(0, 100),
        );
        expect(adapterStart(read, 0, read.length, adapter)).toBe(alignAdapter(read, 0, read.length, adapter));
      }
    }
  });
});
