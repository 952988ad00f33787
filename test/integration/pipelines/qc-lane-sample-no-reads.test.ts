/**
 * Issue 24, the stateful suite's long mode at seed 11: a quality-control run ended `failed`
 * because one of its samples held an empty FASTQ (the lane's `Undetermined.fastq` when every read
 * matched a sample, which its owner had made a sample of; as well, a sheet row that no read
 * matched gets an empty file). An empty read file is normal in a demultiplexed run: the run
 * completes, the sample's QC row says 0 reads with a `no_reads` warning, the log says it plainly,
 * and the other samples' figures are untouched. Over real HTTP with the shipped QC pipeline
 * (MultiQC included).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { startKit, type Kit } from './pipeline-kit';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

type Lane = {
  status: string;
  samples: Array<{ sample_id: number | null; name: string }>;
  undetermined_data: number[];
  undetermined_reads: number;
};
type QcRow = { sample_id: number | null; sample: string; reads: number | null; verdict: string | null };
type Log = { process: string; message: string; level: string };

describe('QC of a lane whose sample and undetermined output have no reads', () => {
  let kit: Kit;
  let alice: { id: number; token: string };
  let qc: number;
  let lane: Lane;
  const scratch = tempDir('laneway-qc-no-reads-lane-');

  beforeAll(async () => {
    kit = await startKit();
    alice = await kit.createUser('alice');
    const list = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; is_latest: boolean }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    qc = list.find((p) => p.name === 'FASTQ Quality Control')!.versions.find((v) => v.is_latest)!.id;
    // Three sheet rows; every read is meant for one of them (no undetermined read), and the reads
    // meant for S03 are taken out of the lane: S03 and Undetermined come out empty.
    const gen = generateLane({
      dir: scratch.path,
      reads: 300,
      samples: 3,
      kind: 'header',
      readLength: 40,
      undeterminedFraction: 0,
      mismatchFraction: 0,
      seed: 24,
    });
    const meantFor = new Map(
      readFileSync(gen.truth, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('\t') as [string, string]),
    );
    const lines = readFileSync(gen.read1, 'utf8').trimEnd().split('\n');
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i += 4) {
      const name = lines[i]!.slice(1).split(/\s/)[0]!;
      if (meantFor.get(name) !== 'S03') kept.push(...lines.slice(i, i + 4));
    }
    expect(kept.length / 4).toBeLessThan(300);
    const rows = gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Genomic DNA`);
    const form = new FormData();
    form.append('name', 'Lane with an empty sample');
    form.append('annotation', new Blob([`Sample Name,Barcode,Organism,Category\n${rows.join('\n')}\n`]), 'sheet.csv');
    form.append('file', new Blob([`${kept.join('\n')}\n`]), 'lane.fastq');
    const posted = await kit.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    expect(posted.status).toBe(202);
    const id = ((await posted.json()) as { id: number }).id;
    for (let i = 0; i < 1200; i++) {
      lane = (await kit.api<Lane>(`/api/lanes/${id}`, alice.token)).body;
      if (lane.status !== 'demultiplexing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(lane.status).toBe('complete');
  });
  afterAll(async () => {
    await kit.stop();
    scratch.remove();
  });

  it('completes, with 0 reads and a no_reads warning for the empty sample and the undetermined one', async () => {
    expect(lane.undetermined_reads).toBe(0);
    expect(lane.undetermined_data).toHaveLength(1);
    const empty = lane.samples.find((s) => s.name === 'S03')!.sample_id!;
    const full = lane.samples.find((s) => s.name === 'S01')!.sample_id!;
    // What the suite did: a sample of the lane's (empty) undetermined output.
    const undetermined = await kit.createSample(alice.token, 'undetermined-S', lane.undetermined_data[0]!);
    const run = await kit.run(alice.token, qc, { samples: [full, empty, undetermined] });
    expect(run.status).toBe(201);
    const executionId = run.body.id as number;
    const done = await kit.waitFor(alice.token, executionId, ['completed', 'failed'], 150_000);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });

    const rows = (await kit.api<{ samples: QcRow[] }>(`/api/executions/${executionId}/qc`, alice.token)).body.samples;
    const row = (sampleId: number) => rows.find((r) => r.sample_id === sampleId)!;
    for (const sampleId of [empty, undetermined]) {
      expect(row(sampleId)).toMatchObject({ reads: 0, verdict: 'warn', q30_rate: null });
      expect(
        (row(sampleId) as unknown as { modules: Array<{ module: string; status: string }> }).modules,
      ).toContainEqual(expect.objectContaining({ module: 'no_reads', status: 'warn' }));
    }
    expect(row(full).reads).toBeGreaterThan(50);
    expect((row(full) as unknown as { modules: Array<{ module: string }> }).modules.map((m) => m.module)).not.toContain(
      'no_reads',
    );

    const logs = (await kit.api<{ items: Log[] }>(`/api/executions/${executionId}/logs`, alice.token)).body.items;
    const warnings = logs.filter((l) => l.level === 'WARNING' && /no reads in/.test(l.message));
    expect(warnings.map((l) => l.process).sort()).toEqual(['qc:S03', 'qc:undetermined-S']);
    expect(logs.filter((l) => l.level === 'ERROR')).toEqual([]);
    // MultiQC took all three samples in (its report is among the outputs).
    const outputs = done.outputs as Array<{ data_type: string }>;
    expect(outputs.filter((o) => o.data_type === 'fastp_json')).toHaveLength(3);
    expect(outputs.some((o) => o.data_type === 'multiqc')).toBe(true);
  });
});
