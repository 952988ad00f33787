/**
 * The file-wide set-up of the tests that end a run while its reference index is being built
 * (issue 24 item 6, over HTTP): a pipeline kit on the shipped manifests, Read Alignment's
 * version, and a run's inputs (a genome no run has indexed yet and a small sample).
 */
import { afterAll, beforeAll } from 'vitest';
import { fastqText } from '../../helpers/qc-fastq';
import { startKit, SHIPPED_MANIFESTS, type Kit } from '../pipelines/pipeline-kit';
import { fasta } from './reference-build-helpers';

export interface AlignmentSuite {
  /** The kit (from the file's beforeAll on). */
  readonly kit: Kit;
  /** Read Alignment 1.2.0 (the shipped Snakemake pipeline): its version id. */
  readonly align: number;
  /** Uploads a genome of 4 × 6 Mb (seeded: a new seed is a genome no run has indexed) and a sample P1. */
  inputs(seed: number): Promise<{ reference: number; sample: number }>;
  /** The messages of a run's log. */
  logMessages(id: number): Promise<string[]>;
}

/** Registers the file's beforeAll and afterAll (call it at the top level of a describe). */
export function alignmentSuite(options: Parameters<typeof startKit>[1] = {}): AlignmentSuite {
  let started: Kit | undefined;
  let align = 0;
  beforeAll(async () => {
    started = await startKit(SHIPPED_MANIFESTS, options);
    const pipelines = (
      await started.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        started.adminToken,
      )
    ).body;
    align = pipelines.find((p) => p.name === 'Read Alignment')!.versions.find((v) => v.version === '1.2.0')!.id;
  });
  afterAll(async () => {
    await started?.stop();
  });
  const kit = (): Kit => {
    if (!started) throw new Error('the kit starts in beforeAll');
    return started;
  };
  return {
    get kit() {
      return kit();
    },
    get align() {
      return align;
    },
    async inputs(seed) {
      const k = kit();
      const reference = await k.upload(k.adminToken, 'genome.fa', fasta(4, 6_000_000, seed));
      const reads = await k.upload(k.adminToken, 'p1.fastq', fastqText({ reads: 50, length: 80, seed: 5 }));
      return { reference, sample: await k.createSample(k.adminToken, 'P1', reads) };
    },
    async logMessages(id) {
      const k = kit();
      const logs = await k.api<{ items: Array<{ message: string }> }>(`/api/executions/${id}/logs`, k.adminToken);
      return logs.body.items.map((l) => l.message);
    },
  };
}
