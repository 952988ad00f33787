/**
 * Issue 16 item 4: a watched run whose markers and FASTQs are present must not stall. With real
 * chokidar and the periodic rescan set far beyond the test (10 minutes), the run must name the
 * file it waits for, accept "Upload now", and move on the marker's own file event.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type WatcherService, type WatcherServiceOptions } from '../../../src/main/core/watchers/watcher-service';
import { writeBclConvertRun } from '../../fixtures/instruments/bcl-convert-run';
import { tempDir } from '../../helpers/temp';
import { coreSuite, until } from './core-suite';

const core = coreSuite({ queue: true });

function watcherService(options: Partial<WatcherServiceOptions> = {}): WatcherService {
  return core.watchers({ debounceMs: 100, ...options });
}

describe('a watched run with its markers and FASTQs present', () => {
  it('names the marker it waits for and can be uploaded at once with "Upload now"', async () => {
    const root = tempDir('laneway-stall-');
    const run = writeBclConvertRun(root.path, '261124_A01234_0031_ASTALLDSX7', { complete: false });
    const watchers = watcherService();
    await watchers.start();
    const w = await watchers.add({
      path: root.path,
      kind: 'illumina',
      auto_upload: true,
      sample_metadata: { organism: 'Homo sapiens', category: 'Control' },
    });
    const stuck = watchers.runs(w.id)[0]!;
    expect(stuck.state).toBe('copying');
    const note = stuck.timeline.at(-1)!.note!;
    expect(note).toContain('12 FASTQ files present');
    expect(note).toContain('Logs/FastqComplete.txt');
    expect(note).toContain('Upload now');
    const uploading = await watchers.upload(stuck.id);
    expect(uploading.state).toBe('uploading');
    expect(uploading.proposal?.samples.map((s) => s.name)).toEqual(['Ctrl1', 'Treat1']);
    // A second click while it uploads is refused: the run is never queued twice.
    await expect(watchers.upload(stuck.id)).rejects.toThrow(/already being uploaded/);
    await core.h.queue.waitForIdle();
    watchers.followUploads();
    const done = watchers.run(stuck.id);
    expect(done.error).toBeNull();
    expect(done.state).toBe('registered');
    await watchers.stop();
    rmSync(run.dir, { recursive: true, force: true });
    root.remove();
  });

  // The watcher's own clock, moved by hand: the five seconds' quiet that a run ready by its
  // marker still waits for (its last FASTQ may be unflushed) passes when the test says so.
  // The marker is the run's newest file and the clock stands 100 ms short of its quiet time, so
  // each recheck (about 150 ms apart) finds the run unsettled until the test moves the clock.
  function landMarker(run: { out: string }): number {
    const marker = join(run.out, 'Logs', 'FastqComplete.txt');
    mkdirSync(join(run.out, 'Logs'));
    writeFileSync(marker, '');
    const written = Date.now();
    utimesSync(marker, written / 1000, written / 1000);
    return written + 5_000 - 100;
  }
  const unsettled = (watchers: WatcherService, id: number) =>
    watchers.runs(id)[0]!.timeline.at(-1)!.note === 'files are still changing';
  /**
   * A watcher service on `clock`, and a wait for a watcher's watch to be in place (chokidar
   * ready and its runs looked at; the file's earlier watchers open too, so by id).
   */
  function clocked(clock: () => number): { watchers: WatcherService; watching: (id: number) => Promise<void> } {
    const ready = new Set<number>();
    const watchers = watcherService({ now: clock, watching: (id) => ready.add(id) });
    return { watchers, watching: (id) => until(() => ready.has(id), 20_000) };
  }

  it("moves on the marker's chokidar event, not at the periodic rescan", async () => {
    const root = tempDir('laneway-stall-');
    const run = writeBclConvertRun(root.path, '261124_A01234_0032_AEVENTDSX7', { complete: false });
    let clock = Date.now();
    const { watchers, watching } = clocked(() => clock);
    await watchers.start();
    const w = await watchers.add({ path: root.path, kind: 'illumina', auto_upload: false });
    await watching(w.id);
    expect(watchers.runs(w.id)[0]!.state).toBe('copying');
    // The marker lands; only its event can move the run: the periodic rescan is 10 minutes away.
    clock = landMarker(run);
    await until(() => unsettled(watchers, w.id), 20_000);
    expect(watchers.runs(w.id)[0]!.state).toBe('copying');
    clock += 200;
    await until(() => watchers.runs(w.id)[0]!.state === 'ready', 15_000);
    await watchers.stop();
    root.remove();
  });

  it('moves on the settle recheck alone once the quiet time has passed, with no file event', async () => {
    const root = tempDir('laneway-stall-');
    const run = writeBclConvertRun(root.path, '261124_A01234_0033_ARECHKDSX7', { complete: false });
    // Every file is there before the watch begins: no file event follows, only rechecks.
    let clock = landMarker(run);
    const { watchers, watching } = clocked(() => clock);
    await watchers.start();
    const w = await watchers.add({ path: root.path, kind: 'illumina', auto_upload: false });
    await watching(w.id);
    expect(unsettled(watchers, w.id)).toBe(true);
    clock += 200;
    await until(() => watchers.runs(w.id)[0]!.state === 'ready', 15_000);
    await watchers.stop();
    root.remove();
  });
});
