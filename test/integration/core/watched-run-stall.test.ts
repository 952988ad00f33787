/**
 * Issue 16 item 4: a watched run whose markers and FASTQs are present must not stall. With real
 * chokidar and the periodic rescan set far beyond the test (10 minutes), the run must name the
 * file it waits for, accept "Upload now", and move on the marker's own file event.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { writeBclConvertRun } from '../../fixtures/instruments/bcl-convert-run';
import { tempDir } from '../../helpers/temp';
import { coreSuite, until } from './core-suite';

const core = coreSuite({ queue: true });

function watcherService(): WatcherService {
  return core.watchers({
    debounceMs: 100,
  });
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

  it("moves on the marker's chokidar event and on the settle recheck, not at the periodic rescan", async () => {
    const root = tempDir('laneway-stall-');
    const run = writeBclConvertRun(root.path, '261124_A01234_0032_AEVENTDSX7', { complete: false });
    const watchers = watcherService();
    await watchers.start();
    const w = await watchers.add({ path: root.path, kind: 'illumina', auto_upload: false, settle_seconds: 5 });
    expect(watchers.runs(w.id)[0]!.state).toBe('copying');
    // The marker lands; no other file changes afterwards. Only its event (then the settle
    // recheck) can move the run: the periodic rescan is 10 minutes away.
    mkdirSync(join(run.out, 'Logs'));
    writeFileSync(join(run.out, 'Logs', 'FastqComplete.txt'), '');
    await until(() => watchers.runs(w.id)[0]!.timeline.at(-1)!.note === 'files are still changing', 20_000);
    await until(() => watchers.runs(w.id)[0]!.state === 'ready', 15_000);
    await watchers.stop();
    root.remove();
  }, 40_000);
});
