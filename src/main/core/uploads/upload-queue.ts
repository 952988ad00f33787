/**
 * The durable upload queue: schedules jobs of the active profile by priority under a
 * concurrency limit, turns each run's outcome into completion, retry with backoff and jitter,
 * a wait (offline, signed out) that burns no retries, or a permanent failure with the
 * service's message; creates samples and lanes when their files are in; emits throttled
 * progress. All state is in the queue database, so a killed process resumes where it was.
 */
import type {
  EventName,
  EventPayload,
  OverallProgress,
  Priority,
  UploadGroup,
  UploadList,
  UploadSettings,
} from '../../../shared/desktop-api/contract';
import { statSync } from 'node:fs';
import { DEFAULT_CHUNK_BYTES } from '../../../shared/limits';
import type { ServiceClient } from '../service-client/service-client';
import { backoffDelay } from './backoff';
import { BandwidthLimiter, limitAt } from './bandwidth';
import { finishGroup } from './group-finisher';
import { applyOutcome } from './job-outcome';
import { PRE_HASH_LIMIT, runJob, type RunOutcome } from './job-runner';
import {
  PRIORITY_RANK,
  presentGroup,
  presentJob,
  type JobHead,
  type JobRow,
  type JobStore,
  type TotalsRow,
} from './job-store';
import { ProgressTracker, throttle } from './progress';
import { SendWindow } from './send-window';
import type { SourceStat } from './source-file';
import { busyJobCount, groupsReadyToCreate, nextAttemptAt, read2sWaiting, releaseOfflineJobs } from './queue-queries';
import { overallProgress, progressPayload } from './queue-report';
import { deleteUploadByFileId, getHealth } from '../../../shared/service-api/endpoints';

export interface QueueConnection {
  profileId: string;
  client: ServiceClient;
}

export interface UploadQueueOptions {
  store: JobStore;
  connection: () => QueueConnection | null;
  emit?: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  now?: () => number;
  random?: () => number;
  chunkSize?: number;
  preHashLimit?: number;
  /** A job fails for good after this many retried faults (offline waits do not count). */
  maxAttempts?: number;
  maxRestarts?: number;
  /** First retry delay; doubles per attempt up to five minutes, with jitter. */
  backoffBaseMs?: number;
  progressIntervalMs?: number;
  offlineProbeMs?: number;
  /** The window of chunks in flight shared by all jobs (default: one sized to the link). */
  sendWindow?: SendWindow;
  log?: (msg: string) => void;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Files of one chunk in flight at once at most. Beyond the concurrency setting they join while
 * the send window has room: for small files round trips, not bytes, bound the rate.
 */
const MAX_SMALL_FILES = 64;

/** A file to queue: its sources joined in order, uploaded as `filename`. */
export interface QueuedFile {
  sources: string[];
  filename: string;
  role: JobRow['role'];
}

/** A sample or lane created on the service once all its files are in. */
export interface QueuedGroup {
  kind: 'sample' | 'lane';
  name: string;
  params: Record<string, unknown>;
  files: QueuedFile[];
}

export interface EnqueueBatch {
  groups?: QueuedGroup[];
  files?: QueuedFile[];
}

export class UploadQueue {
  readonly store: JobStore;
  private readonly running = new Map<number, AbortController>();
  private readonly finishing = new Set<number>();
  private readonly progress: ProgressTracker;
  private readonly limiter: BandwidthLimiter;
  readonly window: SendWindow;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly emitProgress: ReturnType<typeof throttle>;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private offline = false;
  private idleWaiters: Array<() => void> = [];
  private settings: UploadSettings;

  constructor(private readonly options: UploadQueueOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.progress = new ProgressTracker(this.now);
    this.settings = this.store.settings();
    this.window = options.sendWindow ?? new SendWindow();
    this.limiter = new BandwidthLimiter(() => limitAt(this.settings, new Date(this.now())).bytesPerSecond, this.now);
    this.emitProgress = throttle(() => this.sendProgress(), options.progressIntervalMs ?? 250, this.now);
    this.store.onTurnLost((err) => this.recoverLostTurn(err));
  }

  /**
   * A turn's commit failed (JobStore.inTurn; a full disk): its launches and completions are
   * undone in the database while the runs they started go on here, and a launch undone leaves
   * its job queued, which the scheduler would start a second time. Recovered as after a crash:
   * every run stops, every job found running is queued again, and the scheduler starts them
   * afresh, each asking the service what it already holds under its file_id.
   */
  private recoverLostTurn(err: Error): void {
    this.options.log?.(`upload queue: a commit failed (${err.message}); resuming every job from the database`);
    for (const c of this.running.values()) c.abort();
    try {
      this.store.resetRunning();
    } catch (e) {
      this.options.log?.(`upload queue: ${(e as Error).message}`);
    }
    this.kick();
  }

  /** Resets jobs that were running when the process died and starts scheduling. */
  start(): void {
    this.store.resetRunning();
    this.started = true;
    this.kick();
  }

  /** Stops scheduling and aborts running jobs (their journal keeps what was acknowledged). */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.emitProgress.cancel();
    for (const c of this.running.values()) c.abort();
    while (this.running.size) await new Promise((r) => setTimeout(r, 10));
    this.store.flushJournal();
    // The last turn's launches and completions, before the caller closes the database.
    this.store.commitTurn();
  }

  /** Queues files as plain data uploads. */
  enqueueFiles(paths: string[], priority: Priority = 'normal'): JobRow[] {
    const files = paths.map((p) => ({ sources: [p], filename: basenameOf(p), role: 'data' as const }));
    return this.enqueueBatch({ files }, priority).rows;
  }

  /**
   * Tells the screens about a job just queued, so queued files are listed before they start.
   * Deferred past the caller's transaction; a row that was rolled back is not announced.
   */
  private announce(id: number): void {
    // No screen to tell (the command line, the agent): no read back of each row (2,000 small
    // files read theirs back at enqueue, issue 21).
    if (!this.options.emit) return;
    queueMicrotask(() => {
      const row = this.store.job(id);
      if (row) this.changed(row);
    });
  }

  /**
   * Queues groups (a sample or a lane with its files) and loose files in one transaction, so
   * that a crash never leaves a group without its jobs; then starts what may start.
   */
  enqueueBatch(batch: EnqueueBatch, priority: Priority = 'normal'): { rows: JobRow[]; groupIds: number[] } {
    const profileId = this.profileId();
    const insert = (f: QueuedFile, groupId: number | null) =>
      this.store.insertJob({
        profileId,
        sources: f.sources,
        filename: f.filename,
        role: f.role,
        groupId,
        priority,
        chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK_BYTES,
      });
    const out = this.store.db.transaction(() => {
      const rows: JobRow[] = [];
      const groupIds: number[] = [];
      for (const g of batch.groups ?? []) {
        const id = this.store.insertGroup(profileId, g.kind, g.name, g.params).id;
        groupIds.push(id);
        for (const f of g.files) rows.push(insert(f, id));
      }
      for (const f of batch.files ?? []) rows.push(insert(f, null));
      return { rows, groupIds };
    })();
    for (const r of out.rows) this.announce(r.id);
    this.kick();
    return out;
  }

  list(): UploadList {
    const jobs = this.store.jobs();
    const byGroup = new Map<number, number[]>();
    for (const j of jobs) if (j.group_id !== null) byGroup.set(j.group_id, [...(byGroup.get(j.group_id) ?? []), j.id]);
    const waiting = this.read2sWaiting();
    return {
      jobs: jobs.map((j) => presentJob(j, this.progress.get(j.id), waiting.has(j.id))),
      groups: this.store.groups().map((g) => presentGroup(g, byGroup.get(g.id) ?? [])),
      overall: this.overall(jobs),
    };
  }

  /** The overall progress of these jobs alone (a command's own files), as `list()` gives it for all. */
  overallOf(ids: readonly number[]): OverallProgress {
    return this.overall(ids.map((id) => this.store.job(id)).filter((r): r is JobRow => r !== undefined));
  }

  /** A group as `list()` shows it, without reading the whole queue. */
  group(id: number): UploadGroup | undefined {
    const row = this.store.group(id);
    return (
      row &&
      presentGroup(
        row,
        this.store.groupJobs(id).map((j) => j.id),
      )
    );
  }

  job(id: number) {
    const row = this.store.job(id);
    if (!row) throw new Error(`No upload job ${id}`);
    return presentJob(row, this.progress.get(id), this.read2sWaiting(id).has(id));
  }

  pause(id: number) {
    const row = this.store.job(id);
    if (row && !FINAL.has(row.state)) {
      this.running.get(id)?.abort();
      this.changed(this.store.update(id, { state: 'paused', waiting_reason: null }));
    }
    return this.job(id);
  }

  resume(id: number) {
    const row = this.store.job(id);
    if (row?.state === 'paused') this.changed(this.store.update(id, { state: 'queued', next_attempt_at: 0 }));
    this.kick();
    return this.job(id);
  }

  cancel(id: number) {
    const row = this.store.job(id);
    if (row && row.state !== 'completed' && row.state !== 'cancelled') {
      this.running.get(id)?.abort();
      this.changed(this.store.update(id, { state: 'cancelled', waiting_reason: null }));
      // Abandon what the service holds of it (its chunks count to the user's quota). A service
      // without the route answers 404; either way a retry starts over under the same file_id.
      const conn = this.options.connection();
      if (conn && row.file_id) {
        conn.client.send(deleteUploadByFileId, { params: { file_id: row.file_id } }).then(
          () => {},
          () => {},
        );
      }
      if (row.group_id !== null) this.groupChanged(this.store.updateGroup(row.group_id, { state: 'cancelled' }).id);
    }
    return this.job(id);
  }

  retry(id: number) {
    const row = this.store.job(id);
    if (row && (row.state === 'failed' || row.state === 'cancelled')) {
      this.changed(
        this.store.update(id, { state: 'queued', attempts: 0, restarts: 0, error: null, next_attempt_at: 0 }),
      );
      if (row.group_id !== null) {
        const g = this.store.group(row.group_id);
        if (g && (g.state === 'cancelled' || g.state === 'failed'))
          this.groupChanged(this.store.updateGroup(g.id, { state: 'uploading', error: null }).id);
      }
    }
    this.kick();
    return this.job(id);
  }

  setPriority(id: number, priority: Priority) {
    this.store.update(id, { priority: PRIORITY_RANK[priority] });
    this.kick();
    return this.job(id);
  }

  /** Applies one per-job action to every job it fits. */
  all(action: 'pause' | 'resume' | 'cancel' | 'retry'): UploadList {
    for (const j of this.store.jobs()) this[action](j.id);
    return this.list();
  }

  /** Retries groups whose creation failed (after the user fixed the cause on the service). */
  clearFinished(): UploadList {
    this.store.clearFinished();
    return this.list();
  }

  getSettings(): UploadSettings {
    return this.settings;
  }

  setSettings(settings: UploadSettings): UploadSettings {
    this.store.saveSettings(settings);
    this.settings = settings;
    this.kick();
    return settings;
  }

  /** Resolves when no job of the active profile is queued, running or waiting. */
  waitForIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Schedules now: starts what may start, arms the timer for what waits. */
  kick(): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.schedule().catch((err) => this.options.log?.(`upload scheduler: ${(err as Error).stack ?? String(err)}`));
  }

  /** The active profile and its service client, or null when none is signed in. */
  connection(): QueueConnection | null {
    return this.options.connection();
  }

  private profileId(): string {
    const conn = this.options.connection();
    if (!conn) throw new Error('No active service profile');
    return conn.profileId;
  }

  private isIdle(): boolean {
    const conn = this.options.connection();
    if (!conn) return this.running.size === 0;
    const db = this.store.db;
    return (
      this.running.size === 0 &&
      busyJobCount(db, conn.profileId) === 0 &&
      groupsReadyToCreate(db, conn.profileId).length === 0
    );
  }

  private async schedule(): Promise<void> {
    const conn = this.options.connection();
    if (!conn || !this.started) return;
    if (this.offline) {
      const up = await conn.client.send(getHealth, { anonymous: true }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!up) return this.arm(this.options.offlineProbeMs ?? 2_000);
      this.offline = false;
      releaseOfflineJobs(this.store.db);
    }
    await this.finishGroups(conn);
    const free = this.settings.concurrency - this.running.size;
    const now = this.now();
    if (free > 0)
      for (const row of this.store.runnable(conn.profileId, now, free, readsInOrder(conn))) this.launch(row, conn);
    // A bandwidth limit keeps to the setting: the limit, not round trips, bounds the rate then.
    if (!this.limiter.limited()) this.launchSmallFiles(conn, now);
    // Asked only when a slot is free: the question reads every queued job (2,000 small files
    // asked it after each file).
    const next =
      this.running.size < this.settings.concurrency
        ? nextAttemptAt(this.store.db, conn.profileId, readsInOrder(conn))
        : null;
    if (next !== null) this.arm(Math.max(50, next - now));
    if (this.isIdle()) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Starts further files of one chunk, next in order, while the send window has room for them. */
  private launchSmallFiles(conn: QueueConnection, now: number): void {
    // The next rows in one query: the window usually admits several (one query per launch was
    // a tenth of the queue's time with 2,000 small files, issue 21).
    for (let free = MAX_SMALL_FILES - this.running.size; free > 0; free = MAX_SMALL_FILES - this.running.size) {
      const heads = this.store.runnableHeads(conn.profileId, now, Math.min(free, 8), readsInOrder(conn));
      for (const head of heads) {
        const one = oneChunk(head);
        if (one === null || !this.window.admits(one.size)) return;
        const row = this.store.job(head.id);
        if (row) this.launch(row, conn, one);
      }
      if (heads.length < Math.min(free, 8)) return;
    }
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), ms);
  }

  private async finishGroups(conn: QueueConnection): Promise<void> {
    const pending = groupsReadyToCreate(this.store.db, conn.profileId);
    for (const id of pending) {
      // Two jobs of a group finishing together schedule twice: one creation per group at a
      // time, or the second POST is refused and marks a created sample failed.
      if (this.finishing.has(id)) continue;
      this.finishing.add(id);
      try {
        const group = await finishGroup(this.store, conn.client, id);
        if (group) this.groupChanged(group.id);
      } catch (err) {
        this.options.log?.(`creating group ${id} failed, will retry: ${(err as Error).message}`);
        this.arm(backoffDelay(1, this.random));
      } finally {
        this.finishing.delete(id);
      }
    }
  }

  /**
   * Starts a job; `one`, for a file of one chunk, is what the scheduler learnt of its sources
   * (what it takes of the window, and the facts the row lacked, written with the launch's state).
   */
  private launch(row: JobRow, conn: QueueConnection, one?: OneChunk): void {
    const controller = new AbortController();
    this.running.set(row.id, controller);
    // A paused run may still be winding down when its job is resumed: callbacks of a run that
    // was aborted must not touch the job its successor now drives.
    const live = () => !controller.signal.aborted && this.running.get(row.id) === controller;
    let tokenWaits = 0;
    this.progress.begin(row.id, row.bytes_sent, row.size ?? 0);
    // Bytes count when acknowledged, so a chunk in flight sends no events of its own: tick so
    // that speed, ETA and "uploading" stay current on screen while it travels.
    const ticker = setInterval(() => this.emitProgress.call(), 500);
    ticker.unref?.();
    // The size and mtime the scheduler just read go with the state in one commit (a small file
    // paid one for each, issue 21); the runner then neither stats nor writes them again. A crash
    // after it leaves a row with a size that never sent a byte: the resume asks the service
    // about its file_id (404), as for any row with a size.
    const launched = this.store.updateKnown(row, {
      state: 'uploading',
      waiting_reason: null,
      ...(one?.facts ? { size: one.facts.size, mtime_ms: one.facts.mtimeMs } : {}),
    });
    this.changed(launched);
    // A file not yet started has no size on its row: reserving a whole chunk (8 MiB) for a file of
    // 1 MB let a 32 MiB window start only four of them per pass of the scheduler.
    this.window.reserve(row.id, Math.min(row.chunk_size, one?.size ?? row.size ?? row.chunk_size));
    void runJob(one?.facts ? launched : row, {
      store: this.store,
      client: conn.client,
      limiter: this.limiter,
      window: this.window,
      signal: controller.signal,
      preHashLimit: this.options.preHashLimit ?? PRE_HASH_LIMIT,
      ...(one?.facts ? { launchedWith: one.facts } : {}),
      onBytes: (n, network) => {
        if (!live()) return;
        this.progress.add(row.id, n, network);
        this.emitProgress.call();
      },
      onTokenWait: (waiting) => {
        // Concurrent chunk requests share one refresh: count them so the reason clears once.
        tokenWaits += waiting ? 1 : -1;
        const current = this.store.job(row.id);
        if (!current || !live()) return;
        const reason = tokenWaits > 0 ? 'token-refresh' : null;
        if (current.waiting_reason !== reason) this.changed(this.store.update(row.id, { waiting_reason: reason }));
      },
      onState: (state) => {
        if (!live()) return;
        const current = this.store.job(row.id)!;
        // Once uploading, the runner reports every chunk the service holds (network false) and
        // every chunk it acknowledges: counting from 0 makes the bar what the service holds.
        this.progress.begin(row.id, state === 'uploading' ? 0 : current.bytes_sent, current.size ?? 0);
        // A file of one chunk goes from launch to sending without another state: no write then.
        this.changed(current.state === state ? current : this.store.update(row.id, { state }));
      },
    })
      .then((outcome) => this.settle(row.id, outcome))
      .catch((err) => this.options.log?.(`upload job ${row.id}: ${(err as Error).stack ?? String(err)}`))
      .finally(() => {
        clearInterval(ticker);
        if (this.running.get(row.id) === controller) {
          this.window.forget(row.id);
          this.running.delete(row.id);
          this.progress.end(row.id);
          // The last word on progress: without it the screen kept the final speed, ETA and
          // "1 active" after everything finished or was paused.
          if (this.running.size === 0) this.emitProgress.flush();
          else this.emitProgress.call();
        }
        this.kick();
      });
  }

  private settle(id: number, outcome: RunOutcome): void {
    const { row, offline } = applyOutcome(this.store, id, outcome, {
      now: this.now,
      random: this.random,
      maxAttempts: this.options.maxAttempts ?? 8,
      maxRestarts: this.options.maxRestarts ?? 3,
      backoffBaseMs: this.options.backoffBaseMs,
    });
    if (offline) this.offline = true;
    if (row) this.changed(row);
    if (row?.state === 'failed' && row.group_id !== null) this.failGroup(row.group_id, row.error);
  }

  /**
   * A file of a sample or lane refused for good ends its group with the service's reason (a
   * Flow server's refusal of a lane's sheet or chunk showed the lane "uploading" for ever);
   * the first reason stays, and retrying the file reopens the group.
   */
  private failGroup(groupId: number, error: string | null): void {
    if (this.store.group(groupId)?.state !== 'uploading') return;
    this.groupChanged(this.store.updateGroup(groupId, { state: 'failed', error }).id);
  }

  private overall(jobs: readonly TotalsRow[], completedBytes = 0): OverallProgress {
    const scheduled = limitAt(this.settings, new Date(this.now())).scheduled;
    return overallProgress(jobs, this.progress, { offline: this.offline, scheduled }, completedBytes);
  }

  private sendProgress(): void {
    if (!this.options.emit) return;
    const running = this.progress
      .ids()
      .map((id) => this.store.job(id))
      .filter((r): r is JobRow => !!r);
    // Completed jobs only add their bytes: summed in SQL, not read row by row (JobStore.totalsRows).
    const { open, completedBytes, completedUnsized } = this.store.totalsRows();
    const overall = this.overall([...open, ...completedUnsized], completedBytes);
    this.options.emit('uploads:progress', progressPayload(running, this.progress, overall));
  }

  private changed(row: JobRow): void {
    if (!this.options.emit) return;
    this.options.emit('uploads:job-changed', presentJob(row, this.progress.get(row.id), this.waitsForRead1(row)));
    // Read 1 ended: a read 2 still queued behind it (no free slot yet) no longer waits for it.
    if (row.group_id !== null && (row.role === 'read1' || row.role === 'multiplexed') && FINAL.has(row.state))
      for (const j of this.store.groupJobs(row.group_id))
        if (j.state === 'queued' && (j.role === 'read2' || j.role === 'multiplexed-read2'))
          this.options.emit('uploads:job-changed', presentJob(j, this.progress.get(j.id), this.waitsForRead1(j)));
  }

  /**
   * Queued read 2s held back for their read 1 (a Flow profile; `jobId` narrows to one), shown as
   * "waits for read 1" rather than plain "queued". Empty when the wire sends reads at once.
   */
  private read2sWaiting(jobId?: number): Set<number> {
    const conn = this.options.connection();
    if (!conn || !readsInOrder(conn)) return new Set();
    return read2sWaiting(this.store.db, conn.profileId, jobId);
  }

  private waitsForRead1(row: JobRow): boolean {
    return row.state === 'queued' && row.group_id !== null && this.read2sWaiting(row.id).has(row.id);
  }

  private groupChanged(groupId: number): void {
    const g = this.store.group(groupId);
    if (g && this.options.emit)
      this.options.emit(
        'uploads:group-changed',
        presentGroup(
          g,
          this.store.groupJobs(groupId).map((j) => j.id),
        ),
      );
  }
}

interface OneChunk {
  size: number;
  /** The sources' stat when the row had no size yet (what the runner's first stat would read). */
  facts?: SourceStat;
}

/** The job's size when its sources fit in one chunk, else null (a source that cannot be read is left to the runner). */
function oneChunk(row: JobHead): OneChunk | null {
  if (row.size !== null) return row.size <= row.chunk_size ? { size: row.size } : null;
  const facts = { size: 0, mtimeMs: 0 };
  try {
    // As statSources sums and takes the latest mtime, synchronously: the scheduler's pass is.
    for (const p of JSON.parse(row.sources) as string[]) {
      const st = statSync(p);
      facts.size += st.size;
      facts.mtimeMs = Math.max(facts.mtimeMs, st.mtimeMs);
    }
  } catch {
    return null;
  }
  return facts.size <= row.chunk_size ? { size: facts.size, facts } : null;
}

/** Whether the connection's wire needs read 1's data id on read 2's chunks (Flow's). */
function readsInOrder(conn: QueueConnection): boolean {
  return conn.client.readsInOrder;
}

function basenameOf(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
