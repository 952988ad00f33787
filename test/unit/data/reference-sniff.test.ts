import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dataTypeFor } from '../../../src/service/data/data.commands';
import { contentProblem, uploadKindOf } from '../../../src/service/uploads/format-sniff';

const FASTA = '>chr1 test\nACGTNNacgt\nACG\n>chr2\nTTTT\n';
// GTF 2.2 (Brent lab spec): nine tab-separated columns, attributes written key "value";
const GTF = '#!genome-build test\nchr1\ttest\tgene\t11\t40\t.\t+\t.\tgene_id "g1"; gene_name "ONE";\n';
// GFF3 (Sequence Ontology spec): the version pragma first, attributes key=value;
const GFF3 = '##gff-version 3\nchr1\ttest\tgene\t11\t40\t.\t+\t.\tID=g1;Name=ONE\n##FASTA\n>chr1\nACGT\n';
// BED (UCSC): chrom, 0-based start, end, optional name; track and browser lines allowed.
const BED = 'track name=genes\nchr1\t10\t40\tONE\nchr1\t50\t60\n';

describe('reference uploads: FASTA, GTF, GFF3 and BED by name and content', () => {
  it('declares a kind and a data type from the extension, compressed or not', () => {
    expect(['a.fa', 'a.fasta', 'A.FNA', 'a.fa.gz', 'a.fasta.bgz'].map(uploadKindOf)).toEqual([
      'fasta',
      'fasta',
      'fasta',
      'fasta.gz',
      'fasta.gz',
    ]);
    expect(['a.gtf', 'a.gff', 'a.gff3.gz', 'a.bed', 'a.fq.gz'].map(uploadKindOf)).toEqual([
      'gtf',
      'gff3',
      'gff3.gz',
      'bed',
      'fastq.gz',
    ]);
    for (const n of ['a.fai', 'a.vcf', 'a.fa.zip', 'fa', 'a.gtf.txt']) expect(uploadKindOf(n), n).toBeNull();
    expect(['g.fa.gz', 'g.fna', 'x.gff', 'x.gff3', 'x.gtf.gz', 'x.bed'].map(dataTypeFor)).toEqual([
      'fasta',
      'fasta',
      'gff3',
      'gff3',
      'gtf',
      'bed',
    ]);
  });

  it('accepts well-formed files, plain, gzip and multi-member gzip (as bgzip writes)', () => {
    expect(contentProblem('fasta', Buffer.from(FASTA), true)).toBeNull();
    expect(contentProblem('gtf', Buffer.from(GTF), true)).toBeNull();
    expect(contentProblem('gff3', Buffer.from(GFF3), true)).toBeNull();
    expect(contentProblem('bed', Buffer.from(BED), true)).toBeNull();
    expect(contentProblem('fasta.gz', gzipSync(FASTA), true)).toBeNull();
    const members = Buffer.concat([gzipSync('>chr1\nACGT\n'), gzipSync('ACGT\n>chr2\nGG\n')]);
    expect(contentProblem('fasta.gz', members, true)).toBeNull();
    // A head that breaks off mid-line is judged on its whole lines.
    expect(contentProblem('fasta', Buffer.from('>chr1\nACGTAC'), false)).toBeNull();
    expect(contentProblem('gtf', Buffer.from(GTF + 'chr1\tte'), false)).toBeNull();
  });

  it('refuses content that is not what the extension says, with the reason', () => {
    const cases: Array<[Parameters<typeof contentProblem>[0], string, RegExp]> = [
      ['fasta', '@r1\nACGT\n+\nIIII\n', /header line/],
      ['fasta', '>chr1\nACGT 12\n', /line 2: not a sequence/],
      ['fasta', '>\nACGT\n', /header line/],
      ['fasta', '>chr1\n', /no sequence/],
      ['fasta', '{"reads": 1}\n', /header line/],
      ['gtf', 'chr1\ttest\tgene\t11\t40\t.\t+\t.\tID=g1\n', /key "value"/],
      ['gtf', 'chr1\ttest\tgene\t40\t11\t.\t+\t.\tgene_id "g1";\n', /end >= start/],
      ['gtf', 'chr1 test gene 11 40 . + . gene_id "g1";\n', /1 tab-separated columns/],
      ['gtf', '# only a comment\n', /no features/],
      ['gff3', 'chr1\ttest\tgene\t11\t40\t.\t+\t.\tID=g1\n', /gff-version 3/],
      ['gff3', '##gff-version 3\nchr1\ttest\tgene\t11\t40\t.\tx\t.\tID=g1\n', /strand/],
      ['bed', 'chr1\t40\t10\n', /start <= end/],
      ['bed', 'chr1\tten\t20\n', /whole numbers/],
      ['bed', '>chr1\nACGT\n', /at least chrom, start and end/],
    ];
    for (const [kind, text, reason] of cases) {
      expect(contentProblem(kind, Buffer.from(text), true), `${kind}: ${text}`).toMatch(reason);
    }
    expect(contentProblem('fasta.gz', Buffer.from(FASTA), true)).toMatch(/not gzip/);
    expect(contentProblem('bed', Buffer.alloc(0), true)).toMatch(/empty/);
  });
});
