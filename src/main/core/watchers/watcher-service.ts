/**
 * Watched instrument folders, as the desktop API offers them: the watchers' settings (add,
 * change, remove, rescan) and their runs. Watching the folders is folder-watching.ts's job;
 * what the runs in them become (assessed, uploaded, registered, launched) run-tracking.ts's.
 */
import type { EventName, EventPayload, Run, Watcher, WatcherLaunch } from '../../../shared/desktop-api/contract';
import { checkedPath, isDirectory } from '../files/scan-paths';
import { presentRun, type RunStore, type RunRow, type WatcherConfig } from '../runs/run-store';
import type { ServiceClient } from '../service-client/service-client';
import type { UploadQueue } from '../uploads/upload-queue';
import { FolderWatching } from './folder-watching';
import { RunTracking } from './run-tracking';
import { checkWatchable } from './watch-bounds';

export interface WatcherServiceOptions {
  runs: RunStore;
  queue: UploadQueue;
  /** The signed-in service client, for launching pipelines on registered runs. */
  client?: () => ServiceClient | null;
  emit?: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  now?: () => number;
  reconcileMs?: number;
  /** Runs that stop changing before they are ready turn stale after this long. */
  staleMs?: number;
  /** Debounce of file events per run folder. */
  debounceMs?: number;
  pollIntervalMs?: number;
  /** Entries one watcher follows at most (tests lower it). */
  maxEntries?: number;
  log?: (msg: string) => void;
  /** Called once a watcher's file watching is in place (chokidar ready), for tests to wait on. */
  watching?: (watcherId: number) => void;
  /** How often a launched execution is polled (tests shorten it). */
  followPoll?: { minMs?: number; maxMs?: number };
}

export class WatcherService {
  private timer: NodeJS.Timeout | null = null;
  private readonly folders: FolderWatching;
  private readonly tracking: RunTracking;

  constructor(private readonly options: WatcherServiceOptions) {
    const now = options.now ?? Date.now;
    const watcherChanged = (id: number) => void this.changed(id);
    this.folders = new FolderWatching({
      runs: options.runs,
      emit: options.emit,
      now,
      debounceMs: options.debounceMs,
      pollIntervalMs: options.pollIntervalMs,
      maxEntries: options.maxEntries,
      changed: (id, dir) => this.tracking.folderChanged(id, dir),
      ready: (id) => void this.tracking.reconcile(id).then(() => options.watching?.(id)),
      watcherChanged,
    });
    this.tracking = new RunTracking({
      runs: options.runs,
      queue: options.queue,
      client: options.client,
      emit: options.emit,
      now,
      staleMs: options.staleMs,
      log: options.log,
      isWatching: (id) => this.folders.isWatching(id),
      recheck: (id, dir, delayMs) => this.folders.debounce(id, dir, delayMs),
      watcherChanged,
      followPoll: options.followPoll,
    });
  }

  /** Starts every enabled watcher and catches up on what arrived while closed. */
  async start(): Promise<void> {
    for (const w of this.options.runs.watchers()) if (w.enabled) await this.folders.openBounded(w);
    await this.tracking.reconcileAll();
    this.tracking.followLaunched();
    this.timer = setInterval(() => void this.tracking.reconcileAll(), this.options.reconcileMs ?? 60_000);
  }

  /** Stops file watching and the periodic reconcile. */
  async stop(): Promise<void> {
    this.tracking.stopFollowing();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.folders.closeAll();
    await this.tracking.idle();
  }

  list(): Watcher[] {
    return this.options.runs.watchers().map((w) => this.present(w));
  }

  async add(input: {
    path: string;
    kind: Watcher['kind'];
    auto_upload: boolean;
    polling?: boolean;
    settle_seconds?: number;
    sample_metadata?: Record<string, unknown>;
    launch?: WatcherLaunch | null;
  }): Promise<Watcher> {
    const path = await checkedPath(input.path);
    if (!(await isDirectory(path))) throw new Error(`Not a folder: ${input.path}`);
    // Refused before anything is stored: a pseudo-filesystem, or more than one watcher follows.
    await checkWatchable(path, this.folders.maxEntries);
    const w = this.options.runs.addWatcher({
      path,
      kind: input.kind,
      auto_upload: input.auto_upload,
      polling: input.polling ?? false,
      settle_seconds: input.settle_seconds ?? 300,
      sample_metadata: input.sample_metadata ?? {},
      launch: input.launch ?? null,
    });
    await this.folders.openBounded(w);
    await this.tracking.reconcile(w.id);
    return this.changed(w.id);
  }

  async update(input: Partial<WatcherConfig> & { id: number }): Promise<Watcher> {
    this.config(input.id);
    this.folders.close(input.id);
    const w = this.options.runs.updateWatcher(input.id, input);
    if (w.enabled) await this.folders.openBounded(w);
    await this.tracking.reconcile(w.id);
    return this.changed(w.id);
  }

  remove(id: number): void {
    this.config(id);
    this.folders.close(id);
    this.options.runs.removeWatcher(id);
    this.tracking.forget(id);
  }

  async rescan(id: number): Promise<Watcher> {
    await this.tracking.reconcile(id);
    return this.changed(id);
  }

  runs(watcherId?: number): Run[] {
    return this.options.runs.runs(watcherId).map(presentRun);
  }

  run(id: number): Run {
    const row = this.options.runs.run(id);
    if (!row) throw new Error(`No run ${id}`);
    return presentRun(row);
  }

  /** Uploads a run by hand ("Upload now"; run-tracking.ts says which runs may be). */
  upload(id: number, sampleMetadata?: Record<string, string>): Promise<Run> {
    return this.tracking.upload(id, sampleMetadata);
  }

  dismiss(id: number): void {
    this.options.runs.dismiss(id);
  }

  /** Moves uploading runs on after the queue changed (a job finished, a sample was created). */
  followUploads(): void {
    this.tracking.followUploads();
  }

  /** Launches the watcher's pipeline on a registered run (once; a no-op without a launch rule). */
  launchIfAsked(run: RunRow): Promise<void> {
    return this.tracking.launchIfAsked(run);
  }

  /** Reconciles every enabled watcher (serialised: one scan at a time). */
  reconcileAll(): Promise<void> {
    return this.tracking.reconcileAll();
  }

  reconcile(id: number): Promise<void> {
    return this.tracking.reconcile(id);
  }

  private config(id: number): WatcherConfig {
    const w = this.options.runs.watcher(id);
    if (!w) throw new Error(`No watcher ${id}`);
    return w;
  }

  private present(w: WatcherConfig): Watcher {
    return {
      ...w,
      status: w.error ? 'error' : this.folders.isWatching(w.id) ? 'watching' : 'stopped',
      not_runs: this.tracking.notRunsOf(w),
    };
  }

  private changed(id: number): Watcher {
    const w = this.present(this.config(id));
    this.options.emit?.('watchers:changed', w);
    return w;
  }
}
