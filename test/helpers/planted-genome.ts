/**
 * A generated genome with known SNPs for variant-calling tests: a random reference, a sample
 * genome that differs from it at planted positions, reads sampled from the sample genome (both
 * strands, with some exact duplicates for markdup), a GTF with genes over the reference and the
 * truth as a list of positions (1-based, as in VCF) with their reference and alternate bases.
 */
import { prng } from './qc-fastq';

export interface PlantedSnp {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

export interface PlantedGenome {
  fasta: string;
  gtf: string;
  snps: PlantedSnp[];
  /** FASTQ text of `n` reads of `length` bases from the sample genome (plus duplicates). */
  reads(n: number, tag: string, length?: number): string;
}

const COMPLEMENT: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };
const rc = (s: string) =>
  [...s]
    .reverse()
    .map((c) => COMPLEMENT[c]!)
    .join('');

/** A genome of `size` bases on chr1 with `count` SNPs at least 150 bases apart. */
export function plantedGenome(seed: number, size = 20_000, count = 30): PlantedGenome {
  const rnd = prng(seed);
  const ref = Array.from({ length: size }, () => 'ACGT'[Math.floor(rnd() * 4)]!).join('');
  const sample = [...ref];
  const snps: PlantedSnp[] = [];
  const spacing = Math.floor((size - 400) / count);
  for (let i = 0; i < count; i++) {
    const at = 200 + i * spacing + Math.floor(rnd() * (spacing - 150));
    const from = ref[at]!;
    const alt = 'ACGT'.replace(from, '')[Math.floor(rnd() * 3)]!;
    sample[at] = alt;
    snps.push({ chrom: 'chr1', pos: at + 1, ref: from, alt });
  }
  const genome = sample.join('');
  const fasta = `>chr1 generated for Laneway tests\n${ref.match(/.{1,60}/g)!.join('\n')}\n`;
  // Two genes (GTF 2.2: 1-based, inclusive), the first spanning the first half of chr1.
  const half = Math.floor(size / 2);
  const gtf = [
    '#!genome-build laneway-test',
    `chr1\tlaneway\tgene\t1\t${half}\t.\t+\t.\tgene_id "G1"; gene_name "ALPHA";`,
    `chr1\tlaneway\texon\t1\t${half}\t.\t+\t.\tgene_id "G1"; transcript_id "T1"; gene_name "ALPHA";`,
    `chr1\tlaneway\tgene\t${half + 1}\t${size}\t.\t-\t.\tgene_id "G2"; gene_name "BETA";`,
    '',
  ].join('\n');
  return {
    fasta,
    gtf,
    snps,
    reads(n, tag, length = 100) {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const at = Math.floor(rnd() * (genome.length - length));
        const seq = i % 2 ? rc(genome.slice(at, at + length)) : genome.slice(at, at + length);
        const record = `@${tag}${i}\n${seq}\n+\n${'I'.repeat(length)}\n`;
        out.push(record);
        // Every 50th read twice: an exact duplicate for samtools markdup to mark.
        if (i % 50 === 0) out.push(record.replace(`@${tag}${i}\n`, `@${tag}${i}dup\n`));
      }
      return out.join('');
    },
  };
}
