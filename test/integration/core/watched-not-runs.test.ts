/**
 * A folder in a watched instrument folder that holds no run of that instrument (a copy of a
 * run's FASTQs without its RunInfo.xml, say) is left alone, and the watcher says so with what
 * such a run would have: before, nothing at all happened and nothing said why. Once the folder
 * becomes a run (its RunInfo.xml arrives) or goes, it is no longer named. Real chokidar, real
 * queue and service; the test waits on the watcher's events.
 */
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Watcher } from '../../../src/shared/desktop-api/contract';
import { writeIlluminaRun } from '../../fixtures/instruments/illumina-runs';
import { writeMinknowRun } from '../../fixtures/instruments/minknow-run';
import { coreSuite, until } from './core-suite';

const core = coreSuite({ queue: true, prefix: 'laneway-not-runs-' });

const MISEQ = {
  family: 'MiSeq',
  instrument: 'M01234',
  flowcell: 'ABCDE',
  lanes: 1,
  software: 'bcl2fastq',
  application: 'MiSeq Control Software',
} as const;

describe('folders in a watched folder that hold no run', () => {
  it('are named with the reason until they become runs or go, and runs are never named', async () => {
    const root = join(core.root, 'miseq-output');
    mkdirSync(root);
    const scratch = join(core.root, 'scratch');
    const run = writeIlluminaRun(scratch, MISEQ);
    // The lab's copy of the run's FASTQs alone, and a run as the instrument writes it.
    const copy = join(scratch, 'fastqs-from-basespace');
    cpSync(join(run.dir, 'Data'), join(copy, 'Data'), { recursive: true });
    writeIlluminaRun(root, { ...MISEQ, flowcell: 'FGHIJ' });

    const seen: Watcher[] = [];
    const watchers = core.watchers({
      debounceMs: 100,
      emit: (event, payload) => {
        if (event === 'watchers:changed') seen.push(payload as Watcher);
      },
    });
    await watchers.start();
    const w = await watchers.add({ path: root, kind: 'illumina', auto_upload: false, settle_seconds: 5 });
    await until(() => watchers.runs(w.id).length === 1);
    const latest = () => seen.filter((x) => x.id === w.id).at(-1);
    expect(watchers.list().find((x) => x.id === w.id)!.not_runs).toBeNull();

    renameSync(copy, join(root, 'fastqs-from-basespace'));
    await until(() => latest()?.not_runs?.names.join() === 'fastqs-from-basespace');
    expect(latest()!.not_runs!.reason).toMatch(/no RunInfo\.xml/);
    expect(watchers.list().find((x) => x.id === w.id)!.not_runs!.names).toEqual(['fastqs-from-basespace']);
    expect(watchers.runs(w.id)).toHaveLength(1);

    // A periodic scan keeps naming it, and only it.
    await watchers.rescan(w.id);
    expect(watchers.list().find((x) => x.id === w.id)!.not_runs!.names).toEqual(['fastqs-from-basespace']);

    // Its RunInfo.xml arrives: a run, no longer named.
    cpSync(join(run.dir, 'RunInfo.xml'), join(root, 'fastqs-from-basespace', 'RunInfo.xml'));
    await until(() => watchers.runs(w.id).length === 2 && latest()?.not_runs === null);

    // Another such folder, then gone.
    mkdirSync(join(root, 'old stuff'));
    await until(() => latest()?.not_runs?.names.join() === 'old stuff');
    rmSync(join(root, 'old stuff'), { recursive: true });
    await until(() => latest()?.not_runs === null);
    await watchers.stop();
  }, 60_000);

  it('under a MinKNOW data root, the group folders that hold runs three levels down are not named', async () => {
    const dataRoot = join(core.root, 'minknow-data');
    mkdirSync(dataRoot);
    writeMinknowRun(dataRoot, { barcoded: false, batches: 2, dataRoot: true });
    mkdirSync(join(dataRoot, 'reads_from_elsewhere'));
    const watchers = core.watchers({ debounceMs: 100 });
    await watchers.start();
    const w = await watchers.add({ path: dataRoot, kind: 'nanopore', auto_upload: false, settle_seconds: 5 });
    await until(() => watchers.runs(w.id).length === 1);
    await watchers.rescan(w.id);
    const notRuns = watchers.list().find((x) => x.id === w.id)!.not_runs!;
    expect(notRuns.names).toEqual(['reads_from_elsewhere']);
    expect(notRuns.reason).toMatch(/final_summary/);
    await watchers.stop();
  }, 60_000);
});
