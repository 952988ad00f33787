/**
 * Read Alignment's coverage per gene with annotations named otherwise than the reference, over
 * real HTTP with Debian's minimap2, samtools and snakemake. The two namings labs mix up: Ensembl's
 * GTFs name sequences "1", "MT" and scaffolds "KI270728.1" (ftp.ensembl.org,
 * Homo_sapiens.GRCh38.*.gtf), UCSC's FASTAs "chr1", "chrM" (hg38.fa); a primary-assembly FASTA
 * lacks the scaffolds and patches a full annotation has genes on. samtools bedcov stops at the
 * first gene on a sequence the alignments lack, so 1.2.0 failed the whole run there, its error
 * naming only the rule; 1.3.0 leaves such genes out and counts them, and when no name is shared
 * fails saying which naming each file uses.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantedGenome } from '../../helpers/planted-genome';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

const SCRIPT = join(__dirname, '../../../resources/pipelines/workflows/read-alignment/1.3.0/annotation_bed.py');

type Version = { id: number; version: string };
type Output = { id: number; filename: string };
type Execution = {
  status: string;
  error: string | null;
  outputs: Output[];
  logs: Array<{ process: string; message: string }>;
};

describe('Read Alignment 1.3.0: genes on sequences the reference lacks', () => {
  let kit: Kit;
  let versions: Version[];
  let reference: number;
  let sample: number;
  const genome = plantedGenome(21);
  // GTF 2.2 gene lines as Ensembl writes them: no "chr", MT for the mitochondrion.
  const ensemblGene = (chrom: string, start: number, end: number, id: string, name: string) =>
    `${chrom}\tensembl\tgene\t${start}\t${end}\t.\t+\t.\tgene_id "${id}"; gene_version "1"; gene_name "${name}"; gene_source "ensembl"; gene_biotype "protein_coding";`;

  const align = async (version: string, annotation: number) => {
    const v = versions.find((x) => x.version === version)!;
    const run = await kit.run(kit.adminToken, v.id, { samples: [sample], parameters: { reference, annotation } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    return (await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed'], 240_000)) as Execution;
  };
  const text = async (o: Output) =>
    (
      await kit.service.api(`/api/data/${o.id}/download`, { headers: { authorization: `Bearer ${kit.adminToken}` } })
    ).text();

  beforeAll(async () => {
    kit = await startKit();
    const pipelines = (await kit.api<Array<{ name: string; versions: Version[] }>>('/api/pipelines', kit.adminToken))
      .body;
    versions = pipelines.find((p) => p.name === 'Read Alignment')!.versions;
    reference = await kit.upload(kit.adminToken, 'hg-style.fa', genome.fasta);
    sample = await kit.createSample(
      kit.adminToken,
      'S1',
      await kit.upload(kit.adminToken, 's1.fastq', genome.reads(1500, 'n')),
    );
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('counts the genes on the reference and leaves out, counted, those on a scaffold it lacks', async () => {
    const gtf = [
      '#!genome-build GRCh38.p14',
      ensemblGene('chr1', 1, 8000, 'G1', 'ALPHA'),
      ensemblGene('chr1', 9001, 16000, 'G2', 'BETA'),
      ensemblGene('KI270728.1', 100, 900, 'G3', 'SCAFFOLDED'),
    ].join('\n');
    const annotation = await kit.upload(kit.adminToken, 'with-scaffold.gtf', `${gtf}\n`);

    const old = await align('1.2.0', annotation);
    expect(old.status).toBe('failed');
    expect(old.error).toMatch(/Error in rule gene_coverage/);

    const done = await align('1.3.0', annotation);
    expect(done.status, JSON.stringify(done.logs.slice(-10))).toBe('completed');
    const tsv = (await text(done.outputs.find((o) => o.filename === 'S1.gene_coverage.tsv')!)).trim().split('\n');
    expect(tsv[0]).toBe('chrom\tstart\tend\tgene\tbases');
    expect(tsv.slice(1).map((r) => r.split('\t').slice(0, 4).join(' '))).toEqual([
      'chr1 0 8000 ALPHA',
      'chr1 9000 16000 BETA',
    ]);
    expect(tsv.slice(1).every((r) => Number(r.split('\t')[4]) > 50_000)).toBe(true);
    // The step's own words (its shell command is logged under it too).
    const said = done.logs
      .filter((l) => l.process === 'annotation_bed' && !l.message.includes('annotation_bed.py'))
      .map((l) => l.message);
    expect(said).toEqual([
      '1 of 3 genes left out: on 1 sequence the reference lacks (KI270728.1).',
      '2 genes for coverage.',
    ]);
  });

  it('fails, naming both namings, when the annotation shares no sequence name with the reference', async () => {
    const gtf = [ensemblGene('1', 1, 8000, 'G1', 'ALPHA'), ensemblGene('MT', 1, 500, 'G9', 'MT-ND1')].join('\n');
    const annotation = await kit.upload(kit.adminToken, 'ensembl-named.gtf', `${gtf}\n`);
    const done = await align('1.3.0', annotation);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      'Snakemake failed (exit code 1): Error in rule annotation_bed (annotation_bed): ' +
        "None of the annotation's 2 sequence names (1, MT) is among the reference's 1 sequence (chr1): no gene can be counted. " +
        'The annotation names sequences as Ensembl does ("1", "MT"), the reference as UCSC does ("chr1", "chrM"). ' +
        'Use an annotation that names sequences as the reference does.',
    );
  });

  /** annotation_bed.py on its own, over a faidx index and an annotation: exit status, stdout, stderr. */
  const script = (fai: string, annotation: string) => {
    const dir = tempDir('laneway-annotation-');
    try {
      writeFileSync(join(dir.path, 'ref.fa.fai'), fai);
      writeFileSync(join(dir.path, 'genes.gff3'), annotation);
      const r = spawnSync('python3', [SCRIPT, join(dir.path, 'genes.gff3'), join(dir.path, 'ref.fa.fai')]);
      return { status: r.status, bed: r.stdout.toString(), said: r.stderr.toString().trim() };
    } finally {
      dir.remove();
    }
  };

  it("takes Ensembl GFF3's gene-level types (gene, pseudogene, ncRNA_gene) by their symbols", () => {
    // As Ensembl writes GFF3 (Homo_sapiens.GRCh38.*.gff3): genes of three types, Name the symbol,
    // gene_id the stable id; a transcript line under one of them is not a gene.
    const gff3 = [
      '##gff-version 3',
      '#!genome-build GRCh38.p14',
      '1\tensembl\tgene\t11869\t14409\t.\t+\t.\tID=gene:ENSG00000290825;Name=DDX11L2;biotype=lncRNA;gene_id=ENSG00000290825;version=1',
      '1\thavana\tpseudogene\t12010\t13670\t.\t+\t.\tID=gene:ENSG00000223972;Name=DDX11L1;biotype=transcribed_unprocessed_pseudogene;gene_id=ENSG00000223972;version=6',
      'MT\tinsdc\tncRNA_gene\t577\t647\t.\t+\t.\tID=gene:ENSG00000210049;Name=MT-TF;biotype=Mt_tRNA;gene_id=ENSG00000210049;version=1',
      'MT\tinsdc\ttRNA\t577\t647\t.\t+\t.\tID=transcript:ENST00000387314;Parent=gene:ENSG00000210049;Name=MT-TF-201',
    ].join('\n');
    const r = script('1\t248956422\t3\t60\t61\nMT\t16569\t253105701\t60\t61\n', `${gff3}\n`);
    expect(r).toEqual({
      status: 0,
      bed: '1\t11868\t14409\tDDX11L2\n1\t12009\t13670\tDDX11L1\nMT\t576\t647\tMT-TF\n',
      said: '3 genes for coverage.',
    });
  });

  it('says which naming each side uses only when "chr" is the difference', () => {
    const run = (fai: string, annotation: string) => {
      const r = script(fai, annotation);
      return { status: r.status, said: r.said };
    };
    // NCBI RefSeq's GFF3 names sequences by accession: no naming to suggest on a UCSC FASTA.
    const ncbi = run(
      'chr1\t248956422\t6\t60\t61\nchrM\t16569\t253105701\t60\t61\n',
      '##gff-version 3\nNC_000001.11\tBestRefSeq\tgene\t11874\t14409\t.\t+\t.\tID=gene-DDX11L1;Name=DDX11L1\n',
    );
    expect(ncbi).toEqual({
      status: 1,
      said:
        "None of the annotation's 1 sequence name (NC_000001.11) is among the reference's 2 sequences (chr1, chrM): " +
        'no gene can be counted. Use an annotation that names sequences as the reference does.',
    });
    // GENCODE's GFF3 (chr1, chrM) on an Ensembl FASTA (1, MT).
    const gencode = run(
      '1\t248956422\t3\t60\t61\nMT\t16569\t253105701\t60\t61\n',
      '##gff-version 3\nchrM\tENSEMBL\tgene\t577\t647\t.\t+\t.\tID=ENSG00000210049.1;gene_name=MT-TF\n',
    );
    expect(gencode.status).toBe(1);
    expect(gencode.said).toContain(
      'The annotation names sequences as UCSC does ("chr1", "chrM"), the reference as Ensembl does ("1", "MT").',
    );
  });
});
