import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunLauncher } from '../../../src/main/core/launches/run-launcher';
import { RunStore } from '../../../src/main/core/runs/run-store';
import { WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { tempDir } from '../../helpers/temp';
import { openQueue, writeFastq } from './queue-harness';
import { coreSuite, until } from './core-suite';
import { getExecutions, getExecutionsById, getSamplesById } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ prefix: 'laneway-launch-' });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a watched folder that launches a pipeline', () => {
  it('launches FASTQ Quality Control once on the registered run, also after a crash mid-launch', async () => {
    const h = await openQueue(core.service);
    const runs = new RunStore(h.queue.store.db);
    const watchers = new WatcherService({
      runs,
      queue: h.queue,
      client: () => h.client,
      reconcileMs: 300,
      debounceMs: 50,
    });
    await watchers.start();
    await watchers.add({
      path: core.root,
      kind: 'generic',
      auto_upload: true,
      settle_seconds: 1,
      sample_metadata: { organism: 'Homo sapiens', category: 'Genomic DNA' },
      launch: { pipeline: 'FASTQ Quality Control', parameters: {} },
    });
    const dir = join(core.root, 'run-qc');
    mkdirSync(dir);
    writeFastq(join(dir, 'Gut_S1_L001_R1_001.fastq'), 200);

    await until(() => watchers.runs()[0]?.state === 'launched', 60_000);
    const run = watchers.runs()[0]!;
    // Generic folders may pass through `copying` while they settle.
    expect(run.timeline.map((t) => t.state).filter((s) => s !== 'copying')).toEqual([
      'detected',
      'ready',
      'uploading',
      'verified',
      'registered',
      'launched',
    ]);
    expect(run.execution_id).toEqual(expect.any(Number));
    const sampleId = h.queue.list().groups[0]!.created_id!;
    const sample = await h.client.call(getSamplesById, { params: { id: sampleId } });
    expect(sample.metadata).toMatchObject({ organism: 'Homo sapiens', category: 'Genomic DNA' });

    // The execution runs to completion on the run's sample.
    let execution = await h.client.call(getExecutionsById, { params: { id: run.execution_id! } });
    // Asked until it ends, bounded by the test's timeout: a 60 s deadline of its own could end the
    // wait on a loaded machine and report a running execution as the failure.
    while (!['completed', 'failed', 'cancelled'].includes(execution.status)) {
      await sleep(200);
      execution = await h.client.call(getExecutionsById, { params: { id: run.execution_id! } });
    }
    expect(execution.status).toBe('completed');

    // A crash after the request reached the service: the journal says `launching`, the
    // restarted launcher finds the execution instead of launching a second one.
    h.queue.store.db
      .prepare("UPDATE runs SET state = 'registered', launch_state = 'launching', execution_id = NULL WHERE id = ?")
      .run(run.id);
    const launcher = new RunLauncher({ runs, jobs: h.queue.store, client: () => h.client, changed: () => {} });
    const again = await launcher.launch(run.id, { pipeline: 'FASTQ Quality Control', parameters: {} });
    expect(again).toMatchObject({ state: 'launched', execution_id: run.execution_id, launch_state: 'launched' });
    const list = await h.client.call(getExecutions, { query: { sample: sampleId } });
    expect(list.items).toHaveLength(1);

    // A rule naming an unknown pipeline leaves the run registered with the reason.
    h.queue.store.db
      .prepare("UPDATE runs SET state = 'registered', launch_state = NULL, execution_id = NULL WHERE id = ?")
      .run(run.id);
    const refused = await launcher.launch(run.id, { pipeline: 'No Such Pipeline', parameters: {} });
    expect(refused).toMatchObject({ state: 'registered', launch_state: 'failed' });
    expect(refused!.error).toContain('No pipeline named "No Such Pipeline"');

    await watchers.stop();
    await h.close();
  }, 120_000);

  it('fails a run early, before uploading, without Organism and Category; asked once for the run, it uploads', async () => {
    const h = await openQueue(core.service);
    const runs = new RunStore(h.queue.store.db);
    const folder = tempDir('laneway-nometa-');
    const watchers = new WatcherService({ runs, queue: h.queue, reconcileMs: 300, debounceMs: 50 });
    await watchers.start();
    await watchers.add({ path: folder.path, kind: 'generic', auto_upload: true, settle_seconds: 1 });
    const dir = join(folder.path, 'run-nometa');
    mkdirSync(dir);
    writeFastq(join(dir, 'Skin_S1_L001_R1_001.fastq'), 50);
    await until(() => watchers.runs()[0]?.state === 'failed', 60_000);
    expect(watchers.runs()[0]!.error).toBe(
      "Choose Organism and Category for this run's samples (once for the whole sheet, on the run's page), or add the columns to its sample sheet: the service requires them",
    );
    expect(h.queue.list().jobs).toHaveLength(0);

    // Asked once for this run's whole sheet (not a value for every run of the folder).
    const asked = await watchers.upload(watchers.runs()[0]!.id, { organism: 'Mus musculus', category: 'DNA' });
    expect(asked.state).toBe('uploading');
    // The earlier refusal is no longer the run's error (its card showed it after registration).
    expect(asked.error).toBeNull();
    await until(() => watchers.runs()[0]?.state === 'registered', 60_000);
    const sampleId = h.queue.list().groups[0]!.created_id!;
    const sample = await h.client.call(getSamplesById, { params: { id: sampleId } });
    expect(sample.metadata).toMatchObject({ organism: 'Mus musculus', category: 'DNA' });
    expect(runs.watcher(watchers.runs()[0]!.watcher_id)?.sample_metadata ?? {}).toEqual({});
    await watchers.stop();
    await h.close();
    folder.remove();
  }, 60_000);
});
