/**
 * Watched instrument folders: chokidar per folder (polling for network shares, where native
 * events do not arrive), a periodic reconcile because events are lost on SMB/NFS anyway, and
 * a catch-up scan on start for runs that arrived while the app was closed. Each run folder is
 * assessed from its markers; a ready run of an auto-upload watcher is proposed and queued.
 * The instrument folders are only ever read.
 */
import { watch, type FSWatcher } from 'chokidar';
import { basename, relative, sep } from 'node:path';
import type {
  EventName,
  EventPayload,
  Run,
  RunState,
  Watcher,
  WatcherLaunch,
} from '../../../shared/desktop-api/contract';
import { checkedPath, isDirectory } from '../files/scan-paths';
import { assessRun, listRunFolders } from '../runs/run-status';
import { detectRunKind, findRunFolders, RUN_SEARCH_DEPTH } from '../runs/run-kind';
import { LaunchFollower } from '../launches/launch-follower';
import { RunLauncher } from '../launches/run-launcher';
import { presentRun, type RunStore, type RunRow, type WatcherConfig } from '../runs/run-store';
import type { ServiceClient } from '../service-client/service-client';
import type { UploadQueue } from '../uploads/upload-queue';
import { followRunUpload, startRunUpload } from './run-uploads';
import { checkWatchable, countEntries, MAX_WATCH_DEPTH, MAX_WATCHED_ENTRIES, WatchRefused } from './watch-bounds';

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

const UPLOADABLE_BY_HAND = new Set(['ready', 'failed', 'copying', 'stale', 'detected']);
const ACTIVE_STATES = new Set(['detected', 'sequencing', 'copying', 'ready', 'uploading', 'verified', 'stale']);

export class WatcherService {
  private readonly watchers = new Map<number, FSWatcher>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private busy: Promise<void> = Promise.resolve();
  private readonly launcher: RunLauncher;
  private readonly follower: LaunchFollower;

  constructor(private readonly options: WatcherServiceOptions) {
    this.now = options.now ?? Date.now;
    const changed = (run: RunRow) => options.emit?.('runs:changed', presentRun(run));
    this.follower = new LaunchFollower({
      runs: options.runs,
      client: options.client ?? (() => null),
      changed,
      log: options.log,
      poll: options.followPoll,
    });
    this.launcher = new RunLauncher({
      runs: options.runs,
      jobs: options.queue.store,
      client: options.client ?? (() => null),
      changed: (run) => {
        changed(run);
        // A launched execution is followed to its end (polled: Flow servers have no subscriptions).
        this.follower.follow(run);
      },
      log: options.log,
    });
  }

  /** Starts every enabled watcher and catches up on what arrived while closed. */
  async start(): Promise<void> {
    for (const w of this.options.runs.watchers()) if (w.enabled) await this.openBounded(w);
    await this.reconcileAll();
    for (const run of this.options.runs.runs()) this.follower.follow(run);
    this.timer = setInterval(() => void this.reconcileAll(), this.options.reconcileMs ?? 60_000);
  }

  /** Stops file watching and the periodic reconcile. */
  async stop(): Promise<void> {
    this.follower.close();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
    await this.busy;
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
    await checkWatchable(path, this.maxEntries);
    const w = this.options.runs.addWatcher({
      path,
      kind: input.kind,
      auto_upload: input.auto_upload,
      polling: input.polling ?? false,
      settle_seconds: input.settle_seconds ?? 300,
      sample_metadata: input.sample_metadata ?? {},
      launch: input.launch ?? null,
    });
    await this.openBounded(w);
    await this.reconcile(w.id);
    return this.changed(w.id);
  }

  async update(input: Partial<WatcherConfig> & { id: number }): Promise<Watcher> {
    this.config(input.id);
    this.close(input.id);
    const w = this.options.runs.updateWatcher(input.id, input);
    if (w.enabled) await this.openBounded(w);
    await this.reconcile(w.id);
    return this.changed(w.id);
  }

  remove(id: number): void {
    this.config(id);
    this.close(id);
    this.options.runs.removeWatcher(id);
  }

  async rescan(id: number): Promise<Watcher> {
    await this.reconcile(id);
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

  /**
   * Uploads a run by hand: a ready or failed one, or one still waiting for a marker (copying,
   * stale, detected) when the technician knows its FASTQs are complete ("Upload now").
   */
  async upload(id: number, sampleMetadata?: Record<string, string>): Promise<Run> {
    // In line with the scans: a scan that began before the click must not write its older
    // state over the upload, and two clicks must not queue the run twice.
    const next = this.busy.then(async () => {
      const row = this.options.runs.run(id);
      if (!row) throw new Error(`No run ${id}`);
      if (!UPLOADABLE_BY_HAND.has(row.state))
        throw new Error(`Run ${row.name} is ${row.state}: it is already being uploaded or registered`);
      return presentRun(await this.startUpload(row, sampleMetadata));
    });
    this.busy = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  dismiss(id: number): void {
    this.options.runs.dismiss(id);
  }

  /** Moves uploading runs on after the queue changed (a job finished, a sample was created). */
  followUploads(): void {
    for (const run of this.options.runs.runs())
      if (run.state === 'uploading' || run.state === 'verified') this.followUpload(run);
      else if (run.state === 'registered') void this.launchIfAsked(run);
  }

  /** Launches the watcher's pipeline on a registered run (once; a no-op without a launch rule). */
  async launchIfAsked(run: RunRow): Promise<void> {
    const launch = this.options.runs.watcher(run.watcher_id)?.launch;
    if (!launch || run.launch_state === 'launched' || run.launch_state === 'failed') return;
    await this.launcher.launch(run.id, launch);
  }

  /** Reconciles every enabled watcher (serialised: one scan at a time). */
  reconcileAll(): Promise<void> {
    this.busy = this.busy.then(async () => {
      for (const w of this.options.runs.watchers()) if (w.enabled) await this.reconcileNow(w.id);
    });
    return this.busy;
  }

  reconcile(id: number): Promise<void> {
    this.busy = this.busy.then(() => this.reconcileNow(id));
    return this.busy;
  }

  private config(id: number): WatcherConfig {
    const w = this.options.runs.watcher(id);
    if (!w) throw new Error(`No watcher ${id}`);
    return w;
  }

  private present(w: WatcherConfig): Watcher {
    return { ...w, status: w.error ? 'error' : this.watchers.has(w.id) ? 'watching' : 'stopped' };
  }

  private changed(id: number): Watcher {
    const w = this.present(this.config(id));
    this.options.emit?.('watchers:changed', w);
    return w;
  }

  private get maxEntries(): number {
    return this.options.maxEntries ?? MAX_WATCHED_ENTRIES;
  }

  /** Opens a stored watcher once its folder is within bounds; otherwise records why not. */
  private async openBounded(w: WatcherConfig): Promise<void> {
    try {
      const count = await checkWatchable(w.path, this.maxEntries);
      this.open(w, count);
    } catch (err) {
      if (!(err instanceof WatchRefused) && (err as NodeJS.ErrnoException).code === undefined) throw err;
      this.fail(w.id, (err as Error).message);
    }
  }

  private fail(id: number, message: string): void {
    this.close(id);
    this.options.runs.updateWatcher(id, { error: message });
    this.options.emit?.('watchers:event', {
      watcher_id: id,
      type: 'error',
      path: this.options.runs.watcher(id)?.path ?? null,
      message,
      at: new Date(this.now()).toISOString(),
    });
    this.changed(id);
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
        if (!tooMany() && this.watchers.get(w.id) === fsw)
          void this.reconcile(w.id).then(() => this.options.watching?.(w.id));
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
        at: new Date(this.now()).toISOString(),
      });
    });
    this.watchers.set(w.id, fsw);
  }

  private close(id: number): void {
    const fsw = this.watchers.get(id);
    if (fsw) void fsw.close();
    this.watchers.delete(id);
  }

  private debounce(watcherId: number, runDir: string, delayMs = this.options.debounceMs ?? 1_000): void {
    const key = `${watcherId}:${runDir}`;
    const existing = this.pending.get(key);
    if (existing) clearTimeout(existing);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.busy = this.busy
          .then(() => {
            const w = this.options.runs.watcher(watcherId);
            return w ? this.assessUnder(w, runDir) : undefined;
          })
          .catch((err) => this.options.log?.(`watcher ${watcherId}: ${(err as Error).message}`));
      }, delayMs),
    );
  }

  private async reconcileNow(id: number): Promise<void> {
    const w = this.options.runs.watcher(id);
    // A watcher refused by its bounds stays stopped with its reason until it is changed.
    if (!w || !this.watchers.has(id)) return;
    try {
      const dirs = w.kind === 'generic' ? await listRunFolders(w.path) : await findRunFolders(w.path);
      for (const dir of dirs) await this.assess(w, dir);
      for (const run of this.options.runs.runs(id))
        if (run.state === 'uploading' || run.state === 'verified') this.followUpload(run);
        else if (run.state === 'registered') await this.launchIfAsked(run);
      const hadError = w.error !== null;
      this.options.runs.updateWatcher(id, { error: null, last_scan: new Date(this.now()).toISOString() });
      if (hadError)
        this.options.emit?.('watchers:event', {
          watcher_id: id,
          type: 'recovered',
          path: w.path,
          message: 'The folder answers again',
          at: new Date(this.now()).toISOString(),
        });
    } catch (err) {
      this.options.runs.updateWatcher(id, { error: (err as Error).message });
      this.changed(id);
    }
  }

  /**
   * Assesses the runs a file event's top folder holds: the folder itself (a run known, a
   * generic folder, or an instrument run) or, under a MinKNOW data root, the runs nested in
   * it down to MinKNOW's depth.
   */
  private async assessUnder(w: WatcherConfig, top: string): Promise<void> {
    if (w.kind === 'generic' || this.options.runs.runByPath(top)) return this.assess(w, top);
    const depth = RUN_SEARCH_DEPTH - relative(w.path, top).split(sep).length;
    for (const dir of await findRunFolders(top, depth, true)) await this.assess(w, dir);
  }

  private async assess(w: WatcherConfig, dir: string): Promise<void> {
    let run = this.options.runs.runByPath(dir);
    if (run && !ACTIVE_STATES.has(run.state)) return;
    if (run && (run.state === 'uploading' || run.state === 'verified')) return this.followUpload(run);
    if (!run) {
      const kind = w.kind === 'generic' ? 'generic' : await detectRunKind(dir);
      if (kind === null) return; // not (yet) a run of this instrument
      run = this.options.runs.insertRun(w.id, dir, basename(dir), kind);
      this.options.emit?.('watchers:event', {
        watcher_id: w.id,
        type: 'run-detected',
        path: dir,
        message: `Run ${run.name} detected`,
        at: new Date(this.now()).toISOString(),
      });
    }
    const result = await assessRun(dir, run.kind, w.settle_seconds * 1000, this.now());
    // The run may have moved while its files were read (an upload started by hand): keep that.
    const current = this.options.runs.run(run.id);
    if (!current || current.state !== run.state) return;
    let state: RunState = result.state;
    if (
      (state === 'sequencing' || state === 'copying' || state === 'detected') &&
      this.now() - result.lastChange > (this.options.staleMs ?? 24 * 3600_000)
    )
      state = 'stale';
    const before = run.state;
    const beforeTimeline = run.timeline;
    run = this.options.runs.setState(run.id, state, result.note, {
      last_change: result.lastChange,
      error: state === 'failed' ? result.note : null,
    });
    if (run.state !== before || run.timeline !== beforeTimeline) this.options.emit?.('runs:changed', presentRun(run));
    // Waiting only for files to settle: look again then, not at the next periodic rescan
    // (no file event need come after the last write).
    if (result.recheckAt !== undefined && this.watchers.has(w.id))
      this.debounce(w.id, dir, Math.max(50, result.recheckAt - this.now() + 50));
    if (state === 'ready' && w.auto_upload) await this.startUpload(run);
  }

  private async startUpload(run: RunRow, sampleMetadata?: Record<string, string>): Promise<RunRow> {
    const row = await startRunUpload(this.options.runs, this.options.queue, run, sampleMetadata);
    this.options.emit?.('runs:changed', presentRun(row));
    return row;
  }

  private followUpload(run: RunRow): void {
    const next = followRunUpload(this.options.runs, this.options.queue.store, run);
    if (next && next.state !== run.state) this.options.emit?.('runs:changed', presentRun(next));
    if (next?.state === 'registered') void this.launchIfAsked(next);
  }
}
