/**
 * The index field of a read header, read with one regular expression (read-names.ts), is what
 * the rule it states gives: the header's second word when split at runs of white space (as
 * /\s+/ splits, Unicode spaces and line ends included), its part after the last colon, made of
 * capital letters, or two runs of them joined by one "+". The rule is written out here as
 * splits, and both read the same headers: Illumina's, SRA's and MinKNOW's, and random ones.
 */
import { describe, expect, it } from 'vitest';
import { headerIndex } from '../../../src/shared/read-names';

function byTheRule(header: string): { i7: string; i5: string | null } | null {
  const comment = header.split(/\s+/)[1] ?? '';
  const field = comment.split(':').pop() ?? '';
  if (!/^[A-Z]+(\+[A-Z]+)?$/.test(field)) return null;
  const [i7, i5] = field.split('+');
  return { i7: i7!, i5: i5 ?? null };
}

describe('the index field of a read header', () => {
  it.each([
    ['@A00123:8:H3VJ7DSXY:1:1101:10000:1000 1:N:0:GGGGACAC', { i7: 'GGGGACAC', i5: null }],
    ['@A00123:8:H3VJ7DSXY:1:1101:10000:1000 2:N:0:GGGGACAC+AGATCTCG', { i7: 'GGGGACAC', i5: 'AGATCTCG' }],
    ['@M01234:55:000000000-A1B2C:1:1101:15589:1333 1:N:0:1', null],
    ['@NB551234:12:HXXX:1:11101:1:1 1:N:0:', null],
    ['@SRR1234.1 1/1', null],
    ['@read1 runid=abc read=1 ch=5 start_time=2026-01-01T00:00:00Z', null],
    ['@r\t1:N:0:ACGT', { i7: 'ACGT', i5: null }],
    ['@r 1:N:0:ACGT+', null],
    ['@r 1:N:0:+ACGT', null],
    ['@r 1:N:0:AC+GT+TT', null],
    ['@r 1:N:0:acgt', null],
    ['@r ACGT', { i7: 'ACGT', i5: null }],
    ['@r 1:N:0:ACGT extra words', { i7: 'ACGT', i5: null }],
    ['  @r 1:N:0:ACGT', null],
    ['@r\u00a01:N:0:ACGT', { i7: 'ACGT', i5: null }],
    ['@r\u00851:N:0:ACGT', null],
    ['@r', null],
    ['', null],
  ])('%j', (header, expected) => {
    expect(headerIndex(header)).toEqual(expected);
    expect(byTheRule(header)).toEqual(expected);
  });

  it('agrees with the rule on every character as a separator and on random headers', () => {
    const seen: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const h = `@r1${String.fromCharCode(c)}1:N:0:ACGT+TT`;
      if (JSON.stringify(headerIndex(h)) !== JSON.stringify(byTheRule(h))) seen.push(h);
    }
    const alphabet = [
      'A',
      'C',
      'Z',
      'a',
      '+',
      ':',
      ' ',
      '\t',
      '\r',
      '\n',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\ufeff',
      '@',
      '1',
      'N',
    ];
    let seed = 7;
    const next = (k: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % k;
    };
    for (let t = 0; t < 50_000; t++) {
      let h = next(2) ? '@r1 1:N:0:' : '';
      for (let i = next(12); i > 0; i--) h += alphabet[next(alphabet.length)];
      if (JSON.stringify(headerIndex(h)) !== JSON.stringify(byTheRule(h))) seen.push(h);
    }
    expect(seen).toEqual([]);
  });
});
