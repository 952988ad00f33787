/**
 * Watching instrument folders for changes: chokidar per folder (polling for network shares,
 * where native events do not arrive), within the bounds of watch-bounds.ts, with file events
 * debounced per run folder. What a changed run folder means is run-tracking.ts's business:
 * this module only says which folder changed, and when a folder's watch is in place. The
 * instrument folders are only ever read.
 */
import { watch, type FSWatcher } from 'chokidar';
import { basename, relative, sep } from 'node:path';
import type { EventName, EventPayload } from '../../../shared/desktop-api/contract';
import type { RunStore, WatcherConfig } from '../runs/run-store';
import { checkWatchable, countEntries, MAX_WATCH_DEPTH, MAX_WATCHED_ENTRIES, WatchRefused } from './watch-bounds';

export interface FolderWatchingOptions {
  runs: RunStore;
  emit?: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  now: () => number;
  /** A run folder under a watcher changed (debounced); also the rechecks asked for. */
  changed(watcherId: number, runDir: string): void;
  /** A watcher's file watching is in place (chokidar ready, entries counted). */
  ready(watcherId: number): void;
  /** A watcher's status changed (its watch failed). */
  watcherChanged(watcherId: number): void;
  /** Debounce of file events per run folder. */
  debounceMs?: number;
  pollIntervalMs?: number;
  /** Entries one watcher follows at most (tests lower it). */
  maxEntries?: number;
}

export class FolderWatching {
  private readonly watchers = new Map<number, FSWatcher>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: FolderWatchingOptions) {}

  get maxEntries(): number {
    return this.options.maxEntries ?? MAX_WATCHED_ENTRIES;
  }

  /** Whether a watcher's folder is being watched now. */
  isWatching(id: number): boolean {
    return this.watchers.has(id);
  }

  /** Opens a stored watcher once its folder is within bounds; otherwise records why not. */
  async openBounded(w: WatcherConfig): Promise<void> {
    try {
      const count = await checkWatchable(w.path, this.maxEntries);
      this.open(w, count);
    } catch (err) {
      if (!(err instanceof WatchRefused) && (err as NodeJS.ErrnoException).code === undefined) throw err;
      this.fail(w.id, (err as Error).message);
    }
  }

  close(id: number): void {
    const fsw = this.watchers.get(id);
    if (fsw) void fsw.close();
    this.watchers.delete(id);
  }

  /** Stops every watch and pending debounce. */
  async closeAll(): Promise<void> {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
  }

  /** Says `changed(watcherId, runDir)` once no event for that folder came for `delayMs`. */
  debounce(watcherId: number, runDir: string, delayMs = this.options.debounceMs ?? 1_000): void {
    const key = `${watcherId}:${runDir}`;
    const existing = this.pending.get(key);
    if (existing) clearTimeout(existing);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.options.changed(watcherId, runDir);
      }, delayMs),
    );
  }

  private fail(id: number, message: string): void {
    this.close(id);
    this.options.runs.updateWatcher(id, { error: message });
    this.options.emit?.('watchers:event', {
      watcher_id: id,
      type: 'error',
      path: this.options.runs.watcher(id)?.path ?? null,
      message,
      at: new Date(this.options.now()).toISOString(),
    });
    this.options.watcherChanged(id);
  }

  private open(w: WatcherConfig, initialEntries: number): void {
    let entries = initialEntries;
    const fsw = watch(w.path, {
      ignoreInitial: true,
      depth: MAX_WATCH_DEPTH - 1,
      // A link loop would multiply the tree: links are read as files, never walked into.
      followSymlinks: false,
      usePolling: w.polling,
      interval: this.options.pollIntervalMs ?? 5_000,
      binaryInterval: this.options.pollIntervalMs ?? 5_000,
      ignored: (path: string) => basename(path).startsWith('.'),
    });
    const tooMany = (): boolean => {
      if (entries <= this.maxEntries) return false;
      this.fail(
        w.id,
        `${w.path} now holds more than ${this.maxEntries.toLocaleString('en-US')} files and folders, more than one watcher follows; watching stopped (watch the instrument's output folder itself)`,
      );
      return true;
    };
    // Entries created while chokidar starts (after its first read of a folder, before its
    // watch is in place) raise no event: once it is ready, count again and look at the runs.
    fsw.on('ready', () => {
      void countEntries(w.path, this.maxEntries).then((n) => {
        entries = n;
        if (!tooMany() && this.watchers.get(w.id) === fsw) this.options.ready(w.id);
      });
    });
    fsw.on('all', (event, path) => {
      if (event === 'add' || event === 'addDir') entries++;
      else if (event === 'unlink' || event === 'unlinkDir') entries--;
      if (tooMany()) return;
      const rel = relative(w.path, path);
      const top = rel.split(sep)[0];
      if (!top || top.startsWith('..')) return;
      this.debounce(w.id, `${w.path}${sep}${top}`);
    });
    fsw.on('error', (err) => {
      this.options.runs.updateWatcher(w.id, { error: (err as Error).message });
      this.options.emit?.('watchers:event', {
        watcher_id: w.id,
        type: 'error',
        path: w.path,
        message: (err as Error).message,
        at: new Date(this.options.now()).toISOString(),
      });
    });
    this.watchers.set(w.id, fsw);
  }
}
