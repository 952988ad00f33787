/**
 * Issue 15's "done when", over real HTTP with Debian's minimap2, samtools, bcftools and
 * snakemake: a user uploads a FASTA and a GTF, runs Read Alignment on two samples with them, then
 * Variant Calling chained on its BAMs; the BAMs carry read groups named after the samples with
 * duplicates marked, and the VCFs call the SNPs planted in the generated reads.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plantedGenome } from '../../helpers/planted-genome';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 60_000 });

type Version = {
  id: number;
  version: string;
  can_run: boolean;
  reason: string | null;
  workflow_checksum: string | null;
};
type Pipeline = { id: number; name: string; versions: Version[] };
type Output = { id: number; filename: string; data_type: string; sample_id: number | null };
type Execution = {
  status: string;
  error: string | null;
  outputs: Output[];
  logs: Array<{ process: string; message: string }>;
  workflow_checksum: string | null;
  tool_versions: Record<string, string | null> | null;
};

describe('references as data, Read Alignment then Variant Calling on Snakemake and bcftools', () => {
  let kit: Kit;
  let align: Version;
  let calling: Version;
  const scratch = tempDir('laneway-vc-');
  const genome = plantedGenome(15);
  // Set by the alignment test, for the chaining tests after it.
  let alignedRun = 0;
  let alignedTo = 0;

  const download = async (o: Output) => {
    const res = await kit.service.api(`/api/data/${o.id}/download`, {
      headers: { authorization: `Bearer ${kit.adminToken}` },
    });
    expect(res.status).toBe(200);
    const file = join(scratch.path, `${o.id}-${o.filename}`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  };

  beforeAll(async () => {
    kit = await startKit();
    const pipelines = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body;
    align = pipelines.find((p) => p.name === 'Read Alignment')!.versions.find((v) => v.version === '1.2.0')!;
    calling = pipelines.find((p) => p.name === 'Variant Calling')!.versions.find((v) => v.version === '2.1.0')!;
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it('Variant Calling 2.1.0 can run here; the Nextflow version says why it cannot', async () => {
    expect(calling).toMatchObject({ can_run: true, reason: null });
    const nf = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body
      .find((p) => p.name === 'Variant Calling')!
      .versions.find((v) => v.version === '1.0.0')!;
    expect(nf.can_run).toBe(false);
    expect(nf.reason).toMatch(/nextflow/);
  });

  it('uploads FASTA and GTF as typed data, runs alignment and calling, and calls every planted SNP', async () => {
    const reference = await kit.upload(kit.adminToken, 'genome.fa.gz', gzipSync(genome.fasta));
    const annotation = await kit.upload(kit.adminToken, 'genes.gtf', genome.gtf);
    const types = await Promise.all(
      [reference, annotation].map(
        async (id) => (await kit.api<{ data_type: string }>(`/api/data/${id}`, kit.adminToken)).body.data_type,
      ),
    );
    expect(types).toEqual(['fasta', 'gtf']);
    const s1 = await kit.createSample(
      kit.adminToken,
      'Patient-1',
      await kit.upload(kit.adminToken, 'p1.fastq', genome.reads(3000, 'a')),
    );
    const s2 = await kit.createSample(
      kit.adminToken,
      'P2',
      await kit.upload(kit.adminToken, 'p2.fastq.gz', gzipSync(genome.reads(3000, 'b'))),
    );

    // A GTF where a FASTA belongs, and a FASTQ, are refused by data type.
    const wrong = await kit.run(kit.adminToken, align.id, { samples: [s1], parameters: { reference: annotation } });
    expect(wrong).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PARAMETERS', fields: { reference: 'must be a fasta data record (this one is gtf)' } },
    });
    const wrong2 = await kit.run(kit.adminToken, align.id, {
      samples: [s1],
      parameters: { reference, annotation: reference },
    });
    expect(wrong2.body).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: { annotation: expect.stringMatching(/gtf or gff3 or bed/) },
    });

    const run = await kit.run(kit.adminToken, align.id, {
      samples: [s1, s2],
      parameters: { reference, annotation },
      resources: { cpus: 2 },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const aligned = (await kit.waitFor(
      kit.adminToken,
      run.body.id as number,
      ['completed', 'failed'],
      240_000,
    )) as unknown as Execution;
    expect(aligned.status, JSON.stringify(aligned.logs.slice(-20))).toBe('completed');
    alignedRun = run.body.id as number;
    alignedTo = reference;
    expect(aligned.logs.some((l) => /Reference genome\.fa\.gz: built faidx, minimap2 indexes/.test(l.message))).toBe(
      true,
    );
    // Provenance: the version's workflow copy and the tools' versions as they ran.
    expect(aligned.workflow_checksum).toBe(align.workflow_checksum);
    expect(aligned.workflow_checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(aligned.tool_versions).toMatchObject({
      snakemake: expect.stringMatching(/^\d+\.\d+/),
      samtools: expect.stringMatching(/^samtools \d+\.\d+/),
      minimap2: expect.stringMatching(/^\d+\.\d+/),
    });

    for (const [sample, name] of [
      [s1, 'Patient-1'],
      [s2, 'P2'],
    ] as const) {
      const key = name;
      const bam = aligned.outputs.find((o) => o.filename === `${key}.sorted.bam`)!;
      expect(bam).toMatchObject({ data_type: 'bam', sample_id: sample });
      const file = await download(bam);
      const header = execFileSync('samtools', ['view', '-H', file]).toString();
      expect(header).toContain(`@RG\tID:${name}\tSM:${name}`);
      expect(header).toMatch(/@PG\tID:samtools[^\n]*CL:samtools markdup/);
      const flagstat = execFileSync('samtools', ['flagstat', file]).toString();
      // 3000 reads and one exact copy of every 50th: the 60 copies (at least) are marked.
      expect(Number(/^(\d+) \+ 0 duplicates/m.exec(flagstat)![1])).toBeGreaterThanOrEqual(60);
      const coverage = aligned.outputs.find((o) => o.filename === `${key}.gene_coverage.tsv`)!;
      const rows = (
        await (
          await kit.service.api(`/api/data/${coverage.id}/download`, {
            headers: { authorization: `Bearer ${kit.adminToken}` },
          })
        ).text()
      )
        .trim()
        .split('\n');
      expect(rows[0]).toBe('chrom\tstart\tend\tgene\tbases');
      expect(rows.slice(1).map((r) => r.split('\t')[3])).toEqual(['ALPHA', 'BETA']);
      expect(rows.slice(1).every((r) => Number(r.split('\t')[4]) > 100_000)).toBe(true);
    }

    // A MultiQC report over the run's outputs: samtools flagstat and markdup per sample.
    const report = aligned.outputs.find((o) => o.filename === 'multiqc_report.html')!;
    expect(report).toMatchObject({ data_type: 'multiqc', sample_id: null });
    const html = await (
      await kit.service.api(`/api/data/${report.id}/download`, {
        headers: { authorization: `Bearer ${kit.adminToken}` },
      })
    ).text();
    expect(html).toMatch(/MultiQC/);
    expect(html).toMatch(/Samtools/);
    for (const name of ['Patient-1', 'P2']) expect(html).toContain(name);

    const call = await kit.run(kit.adminToken, calling.id, {
      upstream_execution: run.body.id,
      parameters: { reference },
      resources: { cpus: 2 },
    });
    expect(call.status, JSON.stringify(call.body)).toBe(201);
    const called = (await kit.waitFor(
      kit.adminToken,
      call.body.id as number,
      ['completed', 'failed'],
      240_000,
    )) as unknown as Execution;
    expect(called.status, JSON.stringify(called.logs.slice(-20))).toBe('completed');
    // The second run of the same reference reuses its indexes.
    expect(called.logs.some((l) => l.message === 'Reference genome.fa.gz: reusing its faidx, minimap2 indexes')).toBe(
      true,
    );
    // Chained on Read Alignment's BAMs: no alignment here.
    expect(called.logs.some((l) => l.process.startsWith('align'))).toBe(false);
    expect(called.tool_versions).toMatchObject({ bcftools: expect.stringMatching(/^bcftools \d+\.\d+/) });
    const truth = genome.snps.map((s) => `${s.chrom}:${s.pos}:${s.ref}>${s.alt}`).sort();
    for (const [sample, key] of [
      [s1, 'Patient-1'],
      [s2, 'P2'],
    ] as const) {
      const vcf = called.outputs.find((o) => o.filename === `${key}.vcf.gz`)!;
      expect(vcf).toMatchObject({ data_type: 'vcf', sample_id: sample });
      const file = await download(vcf);
      const calls = execFileSync('bcftools', ['query', '-f', '%CHROM:%POS:%REF>%ALT\n', file])
        .toString()
        .trim()
        .split('\n')
        .sort();
      expect(calls).toEqual(truth);
      expect(execFileSync('bcftools', ['query', '-l', file]).toString().trim()).toBe(key);
      expect(called.outputs.find((o) => o.filename === `${key}.bcftools_stats.txt`)).toBeTruthy();
    }
    const callingReport = called.outputs.find((o) => o.filename === 'multiqc_report.html')!;
    const callingHtml = await (
      await kit.service.api(`/api/data/${callingReport.id}/download`, {
        headers: { authorization: `Bearer ${kit.adminToken}` },
      })
    ).text();
    expect(callingHtml).toMatch(/Bcftools/);
  });

  it('refuses to call on those alignments against another reference, and takes theirs when none is given', async () => {
    expect(alignedRun).toBeGreaterThan(0);
    const before = (await kit.api<{ count: number }>('/api/executions/', kit.adminToken)).body.count;
    // Same sequence name (chr1) and length, other bases: bcftools would call thousands of
    // false SNPs on these BAMs; renamed, it prints an error, exits 0 and writes an empty VCF.
    const other = plantedGenome(16);
    const sameNames = await kit.upload(kit.adminToken, 'other.fa', other.fasta);
    const renamed = await kit.upload(kit.adminToken, 'renamed.fa', genome.fasta.replace('>chr1', '>chrA'));
    for (const wrongRef of [sameNames, renamed]) {
      const res = await kit.run(kit.adminToken, calling.id, {
        upstream_execution: alignedRun,
        parameters: { reference: wrongRef },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_PARAMETERS',
        fields: {
          reference: expect.stringMatching(
            new RegExp(
              `^must be the reference the alignments of execution ${alignedRun} \\(.+\\) were made against: genome\\.fa\\.gz \\(data ${alignedTo}\\), not (other|renamed)\\.fa \\(data ${wrongRef}\\)`,
            ),
          ),
        },
      });
    }
    expect((await kit.api<{ count: number }>('/api/executions/', kit.adminToken)).body.count).toBe(before);

    // Left out, the reference is the alignments' own (a form or script need not repeat it).
    const res = await kit.run(kit.adminToken, calling.id, { upstream_execution: alignedRun, test_mode: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.parameters).toMatchObject({ reference: alignedTo });
    const done = await kit.waitFor(kit.adminToken, res.body.id as number, ['completed', 'failed'], 240_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
  });

  it('lets a colleague chain on the shared alignments with their own copy of the reference, never another one', async () => {
    expect(alignedRun).toBeGreaterThan(0);
    const colleague = await kit.createUser('colleague');
    const slug = (await kit.api<{ slug: string }>('/api/groups/', kit.adminToken, { body: { name: 'Variant team' } }))
      .body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, kit.adminToken, {
      body: { emails: ['colleague@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, colleague.token, { method: 'POST' })).status).toBe(200);
    // Shared with its reads and results: the BAMs, not the reference the run was given.
    const shared = await kit.api(`/api/executions/${alignedRun}/share/`, kit.adminToken, {
      body: { group: slug, permission: 'view', with_data: true },
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);

    // Left out: not filled with a reference the colleague may not read.
    const none = await kit.run(colleague.token, calling.id, { upstream_execution: alignedRun, test_mode: true });
    expect(none.body).toMatchObject({ code: 'MISSING_PARAMETERS', missing_params: ['reference'] });
    // Another FASTA: refused, the needed reference named by its id only.
    const other = await kit.upload(colleague.token, 'mine-other.fa', plantedGenome(17).fasta);
    const wrong = await kit.run(colleague.token, calling.id, {
      upstream_execution: alignedRun,
      parameters: { reference: other },
    });
    expect(wrong.status).toBe(400);
    const why = (wrong.body.fields as Record<string, string>).reference!;
    expect(why).toContain(`data ${alignedTo}, not shared with you (your own copy of the same FASTA will do)`);
    expect(why).not.toContain('genome.fa.gz');
    // Their own upload of the same bytes is the same reference.
    const copy = await kit.upload(colleague.token, 'my-genome.fa.gz', gzipSync(genome.fasta));
    const ok = await kit.run(colleague.token, calling.id, {
      upstream_execution: alignedRun,
      parameters: { reference: copy },
      test_mode: true,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const done = await kit.waitFor(colleague.token, ok.body.id as number, ['completed', 'failed'], 240_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
  });
});
