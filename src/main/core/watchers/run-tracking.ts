/**
 * Tracking the runs in watched folders: each run folder is assessed from its markers (a
 * periodic reconcile too, because file events are lost on SMB/NFS, and a catch-up scan on
 * start for runs that arrived while the app was closed); a ready run of an auto-upload watcher
 * is queued, an uploaded one followed to its registration, and a registered one launched when
 * its watcher asks. Work is serialised: one scan or upload decision at a time.
 */
import { stat } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import type { EventName, EventPayload, Run, RunState } from '../../../shared/desktop-api/contract';
import { LaunchFollower } from '../launches/launch-follower';
import { RunLauncher } from '../launches/run-launcher';
import { assessRun, listRunFolders } from '../runs/run-status';
import { detectRunKind, findRunFolders, NOT_A_RUN_REASON, RUN_SEARCH_DEPTH } from '../runs/run-kind';
import { presentRun, type RunRow, type RunStore, type WatcherConfig } from '../runs/run-store';
import type { ServiceClient } from '../service-client/service-client';
import type { UploadQueue } from '../uploads/upload-queue';
import { followRunUpload, startRunUpload } from './run-uploads';

export interface RunTrackingOptions {
  runs: RunStore;
  queue: UploadQueue;
  /** The signed-in service client, for launching pipelines on registered runs. */
  client?: () => ServiceClient | null;
  emit?: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  now: () => number;
  /** Runs that stop changing before they are ready turn stale after this long. */
  staleMs?: number;
  log?: (msg: string) => void;
  /** Whether a watcher's folder is being watched (a watcher refused by its bounds is not scanned). */
  isWatching(watcherId: number): boolean;
  /** Asks to look at a run folder again after `delayMs` (files still settling). */
  recheck(watcherId: number, dir: string, delayMs: number): void;
  /** A watcher's status changed (a scan failed). */
  watcherChanged(watcherId: number): void;
  /** How often a launched execution is polled (tests shorten it). */
  followPoll?: { minMs?: number; maxMs?: number };
}

const isFolder = (path: string) =>
  stat(path).then(
    (st) => st.isDirectory(),
    () => false,
  );

const UPLOADABLE_BY_HAND = new Set(['ready', 'failed', 'copying', 'stale', 'detected']);
const ACTIVE_STATES = new Set(['detected', 'sequencing', 'copying', 'ready', 'uploading', 'verified', 'stale']);

export class RunTracking {
  private busy: Promise<void> = Promise.resolve();
  /** Per watcher, the folders directly in it that hold no run (shown, never touched). */
  private readonly notRuns = new Map<number, string[]>();
  private readonly launcher: RunLauncher;
  private readonly follower: LaunchFollower;

  constructor(private readonly options: RunTrackingOptions) {
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

  /** Follows every launched run still going (after a restart of the app). */
  followLaunched(): void {
    for (const run of this.options.runs.runs()) this.follower.follow(run);
  }

  /** Stops following launches. */
  stopFollowing(): void {
    this.follower.close();
  }

  /** The folders directly in a watched folder that hold no run of its instrument, and why. */
  notRunsOf(w: WatcherConfig): { names: string[]; reason: string } | null {
    const names = this.notRuns.get(w.id);
    return names?.length && w.kind !== 'generic' ? { names, reason: NOT_A_RUN_REASON[w.kind] } : null;
  }

  /** Drops what was noted of a removed watcher. */
  forget(id: number): void {
    this.notRuns.delete(id);
  }

  /** Notes whether a top folder of a watched folder holds no run; says so when the list changed. */
  private noteTop(w: WatcherConfig, name: string, holdsRun: boolean): void {
    const before = this.notRuns.get(w.id) ?? [];
    const after = holdsRun ? before.filter((n) => n !== name) : [...new Set([...before, name])].sort();
    this.setNotRuns(w.id, after);
  }

  private setNotRuns(id: number, names: string[]): void {
    if ((this.notRuns.get(id) ?? []).join('\0') === names.join('\0')) return;
    this.notRuns.set(id, names);
    if (this.options.runs.watcher(id)) this.options.watcherChanged(id); // not once it is removed
  }

  /** Resolves once the work queued so far is done. */
  idle(): Promise<void> {
    return this.busy;
  }

  /** Reconciles every enabled watcher. */
  reconcileAll(): Promise<void> {
    this.busy = this.busy.then(async () => {
      for (const w of this.options.runs.watchers()) if (w.enabled) await this.reconcileNow(w.id);
    });
    return this.busy;
  }

  /** Reconciles one watcher's folder. */
  reconcile(id: number): Promise<void> {
    this.busy = this.busy.then(() => this.reconcileNow(id));
    return this.busy;
  }

  /** A run folder under a watcher changed: assess what it holds. */
  folderChanged(watcherId: number, runDir: string): void {
    this.busy = this.busy
      .then(() => {
        const w = this.options.runs.watcher(watcherId);
        return w ? this.assessUnder(w, runDir) : undefined;
      })
      .catch((err) => this.options.log?.(`watcher ${watcherId}: ${(err as Error).message}`));
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

  private async reconcileNow(id: number): Promise<void> {
    const w = this.options.runs.watcher(id);
    // A watcher refused by its bounds stays stopped with its reason until it is changed.
    if (!w || !this.options.isWatching(id)) return;
    const now = () => new Date(this.options.now()).toISOString();
    try {
      const dirs = w.kind === 'generic' ? await listRunFolders(w.path) : await findRunFolders(w.path);
      for (const dir of dirs) await this.assess(w, dir);
      if (w.kind !== 'generic') {
        const tops = (await listRunFolders(w.path)).filter(
          (top) => !dirs.some((dir) => dir === top || dir.startsWith(top + sep)),
        );
        this.setNotRuns(id, tops.map((top) => basename(top)).sort());
      }
      for (const run of this.options.runs.runs(id))
        if (run.state === 'uploading' || run.state === 'verified') this.followUpload(run);
        else if (run.state === 'registered') await this.launchIfAsked(run);
      const hadError = w.error !== null;
      this.options.runs.updateWatcher(id, { error: null, last_scan: now() });
      if (hadError)
        this.options.emit?.('watchers:event', {
          watcher_id: id,
          type: 'recovered',
          path: w.path,
          message: 'The folder answers again',
          at: now(),
        });
    } catch (err) {
      this.options.runs.updateWatcher(id, { error: (err as Error).message });
      this.options.watcherChanged(id);
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
    const dirs = await findRunFolders(top, depth, true);
    for (const dir of dirs) await this.assess(w, dir);
    // A folder directly in the watched one: whether it holds a run now (gone: holds none to show).
    const rel = relative(w.path, top);
    if (rel && !rel.includes(sep) && !rel.startsWith('..'))
      this.noteTop(w, rel, dirs.length > 0 || !(await isFolder(top)));
  }

  private async assess(w: WatcherConfig, dir: string): Promise<void> {
    const { runs, emit } = this.options;
    let run = runs.runByPath(dir);
    if (run && !ACTIVE_STATES.has(run.state)) return;
    if (run && (run.state === 'uploading' || run.state === 'verified')) return this.followUpload(run);
    if (!run) {
      const kind = w.kind === 'generic' ? 'generic' : await detectRunKind(dir);
      if (kind === null) return; // not (yet) a run of this instrument
      run = runs.insertRun(w.id, dir, basename(dir), kind);
      emit?.('watchers:event', {
        watcher_id: w.id,
        type: 'run-detected',
        path: dir,
        message: `Run ${run.name} detected`,
        at: new Date(this.options.now()).toISOString(),
      });
    }
    const result = await assessRun(dir, run.kind, w.settle_seconds * 1000, this.options.now());
    // The run may have moved while its files were read (an upload started by hand): keep that.
    const current = runs.run(run.id);
    if (!current || current.state !== run.state) return;
    let state: RunState = result.state;
    if (
      (state === 'sequencing' || state === 'copying' || state === 'detected') &&
      this.options.now() - result.lastChange > (this.options.staleMs ?? 24 * 3600_000)
    )
      state = 'stale';
    const before = run.state;
    const beforeTimeline = run.timeline;
    run = runs.setState(run.id, state, result.note, {
      last_change: result.lastChange,
      error: state === 'failed' ? result.note : null,
    });
    if (run.state !== before || run.timeline !== beforeTimeline) emit?.('runs:changed', presentRun(run));
    // Waiting only for files to settle: look again then, not at the next periodic rescan
    // (no file event need come after the last write).
    if (result.recheckAt !== undefined && this.options.isWatching(w.id))
      this.options.recheck(w.id, dir, Math.max(50, result.recheckAt - this.options.now() + 50));
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
