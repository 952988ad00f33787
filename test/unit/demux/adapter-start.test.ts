/**
 * Where the 3' adapter starts: cutadapt's 3' alignment as Ultraplex 1.2.10 runs it (indels
 * allowed, most matches first), and fewer than 3 bases cut counting as no adapter (Ultraplex's
 * --min_trim). Ultraplex gives the same reads per sample on generated lanes
 * (demux-ultraplex-*.test.ts); these are the single reads behind the rule.
 */
import { describe, expect, it } from 'vitest';
import { adapterStart, cutAtAdapter } from '../../../src/service/tools/demux/adapter';

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
});
