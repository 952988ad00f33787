/**
 * Issue 19 item 2: MinKNOW runs as MinKNOW writes them (test/fixtures/instruments/minknow-run.ts
 * follows ONT's output specification field by field). A run without barcodes is ONE sample (its
 * sample_id), its batches joined in batch order and never paired as read 1 and read 2; fail
 * batches are left out unless asked for; BAM output is one line, not one per batch; a watched
 * MinKNOW data root finds runs three levels down (real chokidar, real queue and service).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { propose } from '../../../src/main/core/ingest/propose';
import { MINKNOW_GROUP, MINKNOW_SAMPLE, writeMinknowRun } from '../../fixtures/instruments/minknow-run';
import { coreSuite, until } from './core-suite';
import { getSamplesById } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ queue: true, prefix: 'laneway-minknow-' });

const passBatches = (fastqs: Map<string, Buffer>) =>
  [...fastqs.keys()]
    .filter((k) => k.startsWith('fastq_pass/'))
    .sort((a, b) => Number(/_(\d+)\.fastq\.gz$/.exec(a)![1]) - Number(/_(\d+)\.fastq\.gz$/.exec(b)![1]));

describe('a MinKNOW run without barcodes', () => {
  it('is one sample named by its sample_id, 12 batches joined in batch order, never read 1 / read 2; fail left out unless asked', async () => {
    const run = writeMinknowRun(join(core.root, 'plain'), { barcoded: false, batches: 12, bam: true });
    const p = await propose([run.dir]);
    expect(p.run?.kind).toBe('nanopore');
    expect(p.samples).toHaveLength(1);
    const s = p.samples[0]!;
    expect(s.name).toBe(MINKNOW_SAMPLE);
    expect(s.read2).toBeNull();
    const order = passBatches(run.fastqs);
    // _2 before _10: batch order, not name order.
    expect(order.indexOf(order.find((k) => k.endsWith('_2.fastq.gz'))!)).toBeLessThan(
      order.indexOf(order.find((k) => k.endsWith('_10.fastq.gz'))!),
    );
    expect(s.read1_parts).toEqual(order.map((k) => join(run.dir, ...k.split('/'))));
    expect(p.ignored.some((x) => x.includes('fastq_fail'))).toBe(true);
    expect(p.warnings.filter((w) => w.code === 'unpaired-read')).toEqual([]);
    // Provenance from final_summary_*.txt travels as metadata.
    expect(s.metadata).toMatchObject({
      sample_id: MINKNOW_SAMPLE,
      flowcell: 'PAQ12345',
      run_id: 'e4994c62-93f9-439a-bc8f-d20c95a137a5',
      instrument: 'P2S-01234 P2S-01234-A',
      experiment: MINKNOW_GROUP,
    });
    // BAM output (bam_pass) is not uploaded: one line for the run, not one per batch.
    const bam = p.warnings.filter((w) => w.code === 'bam');
    expect(bam).toHaveLength(1);
    expect(bam[0]!.message).toMatch(/^12 BAM files .* are not uploaded/);

    const withFail = await propose([run.dir], { includeFailed: true });
    expect(withFail.samples).toHaveLength(1);
    expect(withFail.samples[0]!.read1_parts!.at(-1)).toMatch(
      /fastq_fail\/PAQ12345_fail__e4994c62_2abce119_0\.fastq\.gz$/,
    );
  });

  it('batch files dropped without their folder are still one sample, not read 1 and read 2', async () => {
    const run = writeMinknowRun(join(core.root, 'loose'), { barcoded: false, batches: 3 });
    const files = passBatches(run.fastqs).map((k) => join(run.dir, ...k.split('/')));
    const p = await propose(files);
    expect(p.samples.map((s) => [s.name, s.read2, s.read1_parts?.length])).toEqual([[MINKNOW_SAMPLE, null, 3]]);
  });
});

describe('a watched MinKNOW data root', () => {
  it('finds a run at <group>/<sample>/<run>/, waits for final_summary_*.txt, uploads one sample of the joined batches', async () => {
    const dataRoot = join(core.root, 'data');
    mkdirSync(dataRoot);
    const scratch = join(core.root, 'scratch');
    const run = writeMinknowRun(scratch, { barcoded: false, batches: 4, dataRoot: true });
    const summary = readFileSync(join(run.dir, 'final_summary_PAQ12345_e4994c62_2abce119.txt'));
    rmSync(join(run.dir, 'final_summary_PAQ12345_e4994c62_2abce119.txt'));
    let ready: () => void = () => undefined;
    const watching = new Promise<void>((r) => (ready = r));
    const watchers = core.watchers({
      debounceMs: 100,
      watching: () => ready(),
      // Files written by the fixture count as settled: the test waits on events, not the clock.
      now: () => Date.now() + 60_000,
    });
    await watchers.start();
    const w = await watchers.add({
      path: dataRoot,
      kind: 'nanopore',
      auto_upload: true,
      settle_seconds: 5,
      sample_metadata: { organism: 'Homo sapiens', category: 'Control' },
    });
    expect(watchers.runs(w.id)).toEqual([]);
    // MinKNOW's group folder appears in the data root while the watcher runs.
    await watching;
    renameSync(join(scratch, MINKNOW_GROUP), join(dataRoot, MINKNOW_GROUP));
    const runDir = join(dataRoot, MINKNOW_GROUP, MINKNOW_SAMPLE, run.dir.split('/').pop()!);
    await until(() => watchers.runs(w.id)[0]?.state === 'sequencing');
    const waiting = watchers.runs(w.id)[0]!;
    expect(waiting.path).toBe(runDir);
    expect(waiting.timeline.at(-1)!.note).toMatch(/final_summary/);

    writeFileSync(join(runDir, 'final_summary_PAQ12345_e4994c62_2abce119.txt'), summary);
    await until(() => watchers.runs(w.id)[0]?.state === 'uploading');
    await core.h.queue.waitForIdle();
    watchers.followUploads();
    expect(watchers.runs(w.id)[0]!.state).toBe('registered');
    const group = core.h.queue.list().groups.find((g) => g.name === MINKNOW_SAMPLE)!;
    const sample = await core.h.client.call(getSamplesById, { params: { id: group.created_id! } });
    expect(sample.read2).toBeNull();
    expect(sample.metadata).toMatchObject({ flowcell: 'PAQ12345', sample_id: MINKNOW_SAMPLE });
    const res = await fetch(`${core.service.url}/api/data/${sample.read1}/download`, {
      headers: { authorization: `Bearer ${await core.h.session.token()}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(Buffer.concat(passBatches(run.fastqs).map((k) => run.fastqs.get(k)!)))).toBe(true);
    expect(
      gunzipSync(bytes)
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('@')).length,
    ).toBe(4 * 40);
    await watchers.stop();
  }, 90_000);
});
