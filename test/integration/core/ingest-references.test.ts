/**
 * References dropped on the Uploads screen (FASTA, GTF, GFF3, BED, plain or gzip) go through
 * the durable queue as data records, beside the reads' samples, instead of "not a FASTQ file and
 * will not be uploaded": a genome of gigabytes then resumes after a lost connection, which the
 * launch form's own upload does not. Through the real queue into the real service.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { confirmProposal } from '../../../src/main/core/ingest/confirm';
import { propose } from '../../../src/main/core/ingest/propose';
import { getDataById } from '../../../src/shared/service-api/endpoints';
import { plantedGenome } from '../../helpers/planted-genome';
import { coreSuite } from './core-suite';

const core = coreSuite({ queue: true, prefix: 'laneway-ingest-references-' });

describe('references in a drop', () => {
  it('proposes FASTA, GTF and BED files as data beside the samples and uploads them with their data types', async () => {
    const dir = join(core.root, 'drop');
    mkdirSync(dir, { recursive: true });
    const genome = plantedGenome(41);
    const reads = genome.reads(200, 'd');
    writeFileSync(join(dir, 'Liver_S1_L001_R1_001.fastq'), reads);
    writeFileSync(join(dir, 'GRCh38.primary_assembly.genome.fa'), genome.fasta);
    writeFileSync(join(dir, 'gencode.annotation.gtf.gz'), gzipSync(genome.gtf));
    writeFileSync(join(dir, 'targets.bed'), 'chr1\t100\t900\tT1\n');
    writeFileSync(join(dir, 'notes.txt'), 'run notes\n');

    const proposal = await propose([dir]);
    expect(proposal.kind).toBe('samples');
    expect(proposal.samples.map((s) => s.name)).toEqual(['Liver']);
    const refs = ['GRCh38.primary_assembly.genome.fa', 'gencode.annotation.gtf.gz', 'targets.bed'];
    expect(proposal.loose.map((p) => p.split('/').pop()).sort()).toEqual([...refs].sort());
    // Only the file that is neither reads nor a reference is left out, with its warning.
    expect(proposal.warnings.filter((w) => w.code === 'not-fastq').map((w) => w.path)).toEqual([
      join(dir, 'notes.txt'),
    ]);
    const sizes = ['Liver_S1_L001_R1_001.fastq', ...refs].map((n) => statSync(join(dir, n)).size);
    expect(proposal.total_bytes).toBe(sizes.reduce((a, b) => a + b, 0));

    const result = await confirmProposal(core.h.queue, {
      kind: 'samples',
      samples: proposal.samples.map((s) => ({ ...s, metadata: { organism: 'Homo sapiens', category: 'Control' } })),
      lane: null,
      loose: proposal.loose,
    });
    await core.h.queue.waitForIdle();
    const jobs = result.jobs.map((queued) => core.h.queue.list().jobs.find((j) => j.id === queued.id)!);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    const types = new Map<string, string>();
    for (const j of jobs) {
      const record = await core.h.client.call(getDataById, { params: { id: j.data_id! } });
      types.set(record.filename, record.data_type);
    }
    expect(Object.fromEntries(types)).toEqual({
      'Liver_S1_L001_R1_001.fastq': 'fastq',
      'GRCh38.primary_assembly.genome.fa': 'fasta',
      'gencode.annotation.gtf.gz': 'gtf',
      'targets.bed': 'bed',
    });
  });
});
