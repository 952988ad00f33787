import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentDisposition, parseRange } from '../../../src/service/data/http-range';
import { dataTypeFor } from '../../../src/service/data/data.commands';
import { contentProblem, fastqKindOf, startsWithFastqRecord } from '../../../src/service/uploads/format-sniff';
import { filenameProblem } from '../../../src/service/uploads/upload-filename';

describe('upload rules: format sniffing, file names, ranges', () => {
  it('knows the accepted extensions', () => {
    expect(fastqKindOf('a.fastq')).toBe('fastq');
    expect(fastqKindOf('A.FQ')).toBe('fastq');
    expect(fastqKindOf('a.fastq.gz')).toBe('fastq.gz');
    expect(fastqKindOf('a.fq.gz')).toBe('fastq.gz');
    for (const n of ['a.fa', 'a.fastq.bz2', 'a.gz', 'fastq', 'a.fastq.gz.txt']) expect(fastqKindOf(n), n).toBeNull();
  });

  it('recognises a FASTQ record, whole or cut off by the sniff window', () => {
    const rec = '@r1 extra\nACGTN\n+\nIIIII\n@r2\nAC';
    expect(startsWithFastqRecord(rec, false)).toBe(true);
    expect(startsWithFastqRecord('@r1\nACG', false)).toBe(true);
    expect(startsWithFastqRecord('@r1\nACGT\n+\nII', false)).toBe(true);
    expect(startsWithFastqRecord('@r1\nACGT\n+\nII', true)).toBe(false);
    expect(startsWithFastqRecord('@r1\r\nACGT\r\n+\r\nIIII\r\n', true)).toBe(true);
    expect(startsWithFastqRecord('>r1\nACGT\n', false)).toBe(false);
    expect(startsWithFastqRecord('@r1\nAC GT\n+\nIIIII\n', false)).toBe(false);
    expect(startsWithFastqRecord('@r1\nACGT\n-\nIIII\n', false)).toBe(false);
    expect(startsWithFastqRecord('@r1\nACGT\n+\nIIIIII\n', false)).toBe(false);
    expect(startsWithFastqRecord('@\n', true)).toBe(false);
  });

  it('checks gzip magic and the inflated start, also of a truncated stream', () => {
    const gz = gzipSync(Buffer.from('@r1\nACGT\n+\nIIII\n'.repeat(5000)));
    expect(contentProblem('fastq.gz', gz, true)).toBeNull();
    expect(contentProblem('fastq.gz', gz.subarray(0, 200), false)).toBeNull();
    expect(contentProblem('fastq.gz', Buffer.from('@r1\nACGT\n+\nIIII\n'), true)).toMatch(/gzip/);
    expect(contentProblem('fastq.gz', gzipSync(Buffer.from('plain text\n')), true)).toMatch(/FASTQ/);
    expect(contentProblem('fastq', Buffer.alloc(0), true)).toMatch(/empty/);
  });

  it('refuses names that are paths or carry control characters', () => {
    expect(filenameProblem('sample_R1.fastq.gz')).toBeNull();
    expect(filenameProblem('Probe «é».fastq')).toBeNull();
    for (const n of ['', '../x', 'a/b', 'a\\b', '..', '.x', 'x\u0000', 'x\n', 'x\u009b', ' x', 'é'.repeat(200)]) {
      expect(filenameProblem(n), JSON.stringify(n)).not.toBeNull();
    }
  });

  it('parses single byte ranges and ignores what it cannot serve as a range', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-0', 100)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=10-', 100)).toEqual({ kind: 'partial', start: 10, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=5-2', 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'full' });
  });

  it('writes Content-Disposition with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('a.fastq')).toBe(`attachment; filename="a.fastq"; filename*=UTF-8''a.fastq`);
    expect(contentDisposition('x"y\\z%.fq')).toBe(`attachment; filename="x_y_z_.fq"; filename*=UTF-8''x%22y%5Cz%25.fq`);
  });

  it('records FASTQ as one data type whether compressed or not', () => {
    expect(dataTypeFor('a.fastq.gz')).toBe('fastq');
    expect(dataTypeFor('a.fq')).toBe('fastq');
    expect(dataTypeFor('aln.bam')).toBe('bam');
    expect(dataTypeFor('README')).toBe('unknown');
  });
});
