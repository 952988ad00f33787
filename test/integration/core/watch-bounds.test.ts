/**
 * Issue 11 row 9 and part 6: folder watching is bounded. Real folders, real chokidar, the real
 * /proc, /sys and /dev of this machine.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type WatcherService } from '../../../src/main/core/watchers/watcher-service';
import { countEntries } from '../../../src/main/core/watchers/watch-bounds';
import { tempDir } from '../../helpers/temp';
import { coreSuite, until } from './core-suite';

const core = coreSuite({ queue: true });

function watchers(maxEntries?: number): WatcherService {
  return core.watchers({
    debounceMs: 50,
    ...(maxEntries ? { maxEntries } : {}),
  });
}

describe('bounded folder watching', () => {
  it('refuses /proc, /sys, /dev and folders under them with a clear error, storing nothing', async () => {
    const w = watchers();
    await w.start();
    for (const path of ['/proc', '/sys', '/dev', '/proc/self', '/sys/kernel', '/dev/shm']) {
      await expect(w.add({ path, kind: 'generic', auto_upload: false })).rejects.toThrow(
        /pseudo-filesystem that holds no instrument data/,
      );
    }
    expect(w.list().filter((x) => /^\/(proc|sys|dev)/.test(x.path))).toEqual([]);
    await w.stop();
  });

  it('refuses a folder with more entries than one watcher follows, naming the cap', async () => {
    const root = tempDir('laneway-bounds-');
    for (let i = 0; i < 30; i++) {
      mkdirSync(join(root.path, `d${i}`));
      for (let j = 0; j < 10; j++) writeFileSync(join(root.path, `d${i}`, `f${j}`), '');
    }
    const w = watchers(200);
    await w.start();
    await expect(w.add({ path: root.path, kind: 'generic', auto_upload: false })).rejects.toThrow(
      /holds more than 200 files and folders within 8 levels, more than one watcher follows/,
    );
    expect(w.list().some((x) => x.path === root.path)).toBe(false);
    await w.stop();
    root.remove();
  });

  it('stops a watcher whose folder grows past the cap, with the reason on the watcher', async () => {
    const root = tempDir('laneway-bounds-');
    const ready = new Set<number>();
    const w = core.watchers({ debounceMs: 50, maxEntries: 60, watching: (id) => ready.add(id) });
    await w.start();
    const added = await w.add({ path: root.path, kind: 'generic', auto_upload: false });
    expect(added.status).toBe('watching');
    await until(() => ready.has(added.id));
    const status = () => w.list().find((x) => x.id === added.id)!.status;
    // 32 entries, under the cap: 30 files, then a run folder with its FASTQ. chokidar reports a
    // folder's entries in order, so once the run is seen the 30 files before it were counted.
    for (let i = 0; i < 30; i++) writeFileSync(join(root.path, `grow${i}.txt`), 'x');
    mkdirSync(join(root.path, 'run1'));
    writeFileSync(join(root.path, 'run1', 'x_R1.fastq'), '@r\nACGT\n+\nIIII\n');
    await until(() => w.runs(added.id).some((r) => r.name === 'run1'), 20_000);
    expect(status()).toBe('watching');
    for (let i = 30; i < 80; i++) writeFileSync(join(root.path, `grow${i}.txt`), 'x');
    await until(() => status() === 'error', 20_000);
    expect(w.list().find((x) => x.id === added.id)!.error).toMatch(/now holds more than 60 files and folders/);
    await w.stop();
    root.remove();
  });

  it('never follows a symbolic link loop, and still sees runs next to it', async () => {
    const root = tempDir('laneway-bounds-');
    mkdirSync(join(root.path, 'a', 'b'), { recursive: true });
    symlinkSync(root.path, join(root.path, 'a', 'b', 'loop'));
    symlinkSync(join(root.path, 'a'), join(root.path, 'a', 'b', 'up'));
    expect(await countEntries(root.path)).toBe(4);
    const w = watchers(100);
    await w.start();
    const added = await w.add({ path: root.path, kind: 'generic', auto_upload: false, settle_seconds: 5 });
    expect(added.status).toBe('watching');
    mkdirSync(join(root.path, 'run1'));
    writeFileSync(join(root.path, 'run1', 'x_R1.fastq'), '@r\nACGT\n+\nIIII\n');
    await until(() => w.runs(added.id).some((r) => r.name === 'run1'), 20_000);
    expect(w.list().find((x) => x.id === added.id)!.status).toBe('watching');
    await w.stop();
    root.remove();
  });

  it('keeps the host answering while it counts a large folder (the walk yields between directories)', async () => {
    const root = tempDir('laneway-bounds-');
    for (let i = 0; i < 200; i++) {
      mkdirSync(join(root.path, `d${i}`));
      for (let j = 0; j < 20; j++) writeFileSync(join(root.path, `d${i}`, `f${j}`), '');
    }
    let ticks = 0;
    let counted = false;
    const tick = () => {
      ticks++;
      if (!counted) setImmediate(tick);
    };
    setImmediate(tick);
    const n = await countEntries(root.path);
    counted = true;
    expect(n).toBe(200 * 21);
    // Other work ran many times while the walk was under way: it never held the event loop.
    expect(ticks).toBeGreaterThan(50);
    root.remove();
  });
});
