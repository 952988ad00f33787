/**
 * Issue 19 item 8: where a sample comes from travels onto it. A watched folder's run (real
 * chokidar, real queue, real service) gives each sample RunInfo.xml's run id, instrument and
 * flow cell, the sheet's index pair, Sample_Project and lanes, and the Organism and Category of
 * the sheet's own columns per sample (the watcher's metadata only where the sheet has none).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propose } from '../../../src/main/core/ingest/propose';
import { writeBclConvertRun } from '../../fixtures/instruments/bcl-convert-run';
import { writeIlluminaRun } from '../../fixtures/instruments/illumina-runs';
import { coreSuite, until } from './core-suite';
import { getSamples } from '../../../src/shared/service-api/endpoints';

const core = coreSuite({ queue: true, prefix: 'laneway-provenance-' });

describe('provenance on samples', () => {
  it('a watched NextSeq 550 run: per-sample Organism and Category from the sheet, run id, flow cell, index and project on the service', async () => {
    const watched = join(core.root, 'nextseq');
    const run = writeIlluminaRun(watched, {
      family: 'NextSeq 550',
      instrument: 'NB551234',
      flowcell: 'HPROVBGXY',
      lanes: 2,
      software: 'bcl2fastq',
      application: 'NextSeq Control Software',
      completionStatus: true,
    });
    const watchers = core.watchers({
      // The fixture's files count as written a minute ago: past the 5 s quiet after Stats.json.
      now: () => Date.now() + 60_000,
    });
    await watchers.start();
    const w = await watchers.add({
      path: watched,
      kind: 'illumina',
      auto_upload: true,
      settle_seconds: 300,
      sample_metadata: { organism: 'Homo sapiens', category: 'Genomic DNA', Lab: 'Hepatology' },
    });
    expect(watchers.runs(w.id)[0]!.state).toBe('uploading');
    await core.h.queue.waitForIdle();
    watchers.followUploads();
    expect(watchers.runs(w.id)[0]!.error).toBeNull();
    expect(watchers.runs(w.id)[0]!.state).toBe('registered');
    await watchers.stop();
    const samples = (await core.h.client.call(getSamples, { query: { per_page: 100 } })).items;
    const liver2 = samples.find((s) => s.name === 'Liver_2')!;
    expect(liver2.metadata).toMatchObject({
      organism: 'Mus musculus',
      category: 'RNA',
      Lab: 'Hepatology',
      run_id: run.runId,
      instrument: 'NB551234 (NextSeq 500/550)',
      flowcell: 'HPROVBGXY',
      index: 'GATCGATC+AACCGGTT',
      sample_project: 'Hepato',
      lanes: '1+2',
    });
    expect(samples.find((s) => s.name === 'Liver_1')!.metadata).toMatchObject({
      organism: 'Homo sapiens',
      category: 'DNA',
    });
  }, 90_000);

  it('a watched MiniSeq run with no completion file becomes ready on its own once its FASTQs settle (real chokidar, no rescan)', async () => {
    const watched = join(core.root, 'miniseq');
    const watchers = core.watchers({
      debounceMs: 100,
    });
    await watchers.start();
    mkdirSync(watched);
    const w = await watchers.add({ path: watched, kind: 'illumina', auto_upload: false, settle_seconds: 5 });
    writeIlluminaRun(watched, {
      family: 'MiniSeq',
      instrument: 'MN01234',
      flowcell: 'SETTLE01',
      lanes: 1,
      software: 'Local Run Manager',
      application: 'MiniSeq Control Software',
      analysisDone: false,
    });
    // The run is written after the watcher started: its events find it, the settle recheck readies it.
    await until(() => watchers.runs(w.id)[0]?.state === 'copying');
    expect(watchers.runs(w.id)[0]!.timeline.at(-1)!.note).toMatch(/ready once nothing has changed for 5 s/);
    await until(() => watchers.runs(w.id)[0]?.state === 'ready');
    expect(watchers.runs(w.id)[0]!.timeline.at(-1)!.note).toMatch(/unchanged for 5 s \(MiniSeq writes no copy marker/);
    await watchers.stop();
  }, 60_000);

  it('a BCL Convert folder keeps the run id, instrument, flow cell and index on each sample', async () => {
    const run = writeBclConvertRun(join(core.root, 'bcl'), '261124_A01234_0017_AHXXXXDSX7');
    const p = await propose([run.dir]);
    expect(p.samples[0]!.metadata).toMatchObject({
      run_id: '261124_A01234_0017_AHXXXXDSX7',
      instrument: 'A01234 (NovaSeq 6000)',
      flowcell: 'HXXXXDSX7',
      index: 'ACGTACGT+TTGGCCAA',
      lanes: '1+2',
    });
  });
});
