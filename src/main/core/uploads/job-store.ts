/**
 * Queries over the queue database: jobs, the chunk journal, groups, the hash indexes and
 * settings. The journal row of a chunk and the job's bytes_sent change in one transaction.
 */
import { expectedSize } from './expected-size';
import { READ2_WAITS_FOR_READ1 } from './queue-queries';
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type {
  JobRole,
  JobState,
  Priority,
  UploadGroup,
  UploadJob,
  UploadSettings,
  WaitingReason,
} from '../../../shared/desktop-api/contract';

export interface JobRow {
  id: number;
  profile_id: string;
  path: string;
  sources: string;
  filename: string;
  role: JobRole;
  group_id: number | null;
  state: JobState;
  priority: number;
  file_id: string;
  chunk_size: number;
  size: number | null;
  mtime_ms: number | null;
  bytes_sent: number;
  attempts: number;
  restarts: number;
  next_attempt_at: number;
  waiting_reason: WaitingReason | null;
  error: string | null;
  data_id: number | null;
  checksum: string | null;
  deduplicated: number;
  created: string;
  updated: string;
}

/** What the queue's totals read of a job (queue-report.ts, overallProgress). */
export type TotalsRow = Pick<JobRow, 'id' | 'state' | 'size' | 'sources' | 'bytes_sent' | 'waiting_reason'>;
const TOTALS_COLUMNS = 'id, state, size, sources, bytes_sent, waiting_reason';

export interface GroupRow {
  id: number;
  profile_id: string;
  kind: 'sample' | 'lane';
  name: string;
  params: string;
  state: UploadGroup['state'];
  created_id: number | null;
  error: string | null;
  /** Files of the group not completed, kept by the database's triggers (queue-db.ts, v6). */
  open_jobs: number;
}

/** What the scheduler reads of a queued job to size it (`runnableHeads`). */
export type JobHead = Pick<JobRow, 'id' | 'sources' | 'size' | 'chunk_size'>;

export const PRIORITY_RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };
const RANK_PRIORITY: Priority[] = ['high', 'normal', 'low'];

export const DEFAULT_SETTINGS: UploadSettings = { concurrency: 3, limit_mbps: null, schedule: [] };

/** The store whose turn (`inTurn`) a database's connection may be in. */
const storeOf = new WeakMap<Database.Database, JobStore>();

/**
 * Commits the queue's writes of this turn of the event loop, and any other write made since on
 * the same connection: for a journal that must be on disk before its request (a run's launch,
 * a group's creation), called right after writing it, outside any transaction of the caller's.
 */
export function commitOpenTurn(db: Database.Database): void {
  storeOf.get(db)?.commitTurn();
}

export class JobStore {
  private readonly statements = new Map<string, Database.Statement>();
  /** Acknowledged chunks not yet written: [job, idx, sha256, size]. */
  private pendingChunks: Array<[number, number, string, number]> = [];
  private flushArmed = false;
  /** Whether this store opened the transaction of this turn of the event loop (`inTurn`). */
  private turnOpen = false;
  /** Told when a turn's commit failed and was rolled back (`onTurnLost`). */
  private readonly turnLost: Array<(err: Error) => void> = [];

  constructor(
    readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    storeOf.set(db, this);
  }

  /** A prepared statement, prepared once per text (many small files run the same few). */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) this.statements.set(text, (st = this.db.prepare(text)));
    return st;
  }

  /**
   * Runs a write of the upload path (a launch, a completion) in the transaction of this turn of
   * the event loop, opened by the first such write and committed when the turn ends
   * (setImmediate), so that the files that start and finish in one turn share one commit. Each
   * small file paid two commits of its own, a fifth of the queue's time with 2,000 small files,
   * and a turn handles from a few to some forty of them (issue 21). Reads in the turn see its
   * writes (one connection). A crash before the commit loses at most that turn's launches and
   * completions, which the queue recovers from as from any crash: a job found uploading is
   * queued again and asks the service what it holds under its file_id. Inside a caller's
   * transaction the write is simply part of it. Other writes on the connection during the turn
   * join it (the turn commits or is lost as one); a journal that must be on disk before a request
   * commits the turn right after it is written (`commitOpenTurn`, `updateGroup`).
   */
  private inTurn<T>(write: () => T): T {
    if (!this.turnOpen && !this.db.inTransaction) {
      this.db.exec('BEGIN');
      this.turnOpen = true;
      setImmediate(() => this.commitTurn());
    }
    return write();
  }

  /**
   * Calls `listener` when a turn's commit fails (a full disk, an I/O error) and is rolled back:
   * the turn's launches and completions are undone in the database, not in the caller's memory,
   * which must recover as after a crash (UploadQueue does).
   */
  onTurnLost(listener: (err: Error) => void): void {
    this.turnLost.push(listener);
  }

  /**
   * Commits this turn's writes now: at the turn's end, and before the database closes (the
   * queue's stop). A failed commit is rolled back and reported (`onTurnLost`).
   */
  commitTurn(): void {
    if (!this.turnOpen) return;
    this.turnOpen = false;
    if (!this.db.open || !this.db.inTransaction) return;
    try {
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      if (this.turnLost.length === 0)
        process.emitWarning(`upload queue: a commit failed and was rolled back: ${(err as Error).message}`);
      for (const listener of this.turnLost) listener(err as Error);
    }
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  /** Inserts a job; returns its row. */
  insertJob(input: {
    profileId: string;
    sources: string[];
    filename: string;
    role: JobRole;
    groupId: number | null;
    priority: Priority;
    chunkSize: number;
  }): JobRow {
    const at = this.stamp();
    const info = this.sql(
      `INSERT INTO jobs (profile_id, path, sources, filename, role, group_id, state, priority, file_id, chunk_size, created, updated)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
    ).run(
      input.profileId,
      input.sources[0],
      JSON.stringify(input.sources),
      input.filename,
      input.role,
      input.groupId,
      PRIORITY_RANK[input.priority],
      randomUUID(),
      input.chunkSize,
      at,
      at,
    );
    return this.job(Number(info.lastInsertRowid))!;
  }

  job(id: number): JobRow | undefined {
    this.flushJournal();
    return this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  jobs(): JobRow[] {
    this.flushJournal();
    return this.sql('SELECT * FROM jobs ORDER BY id').all() as JobRow[];
  }

  /** Jobs that read exactly these sources (the JSON array a job stores), in id order. */
  jobsWithSources(sources: string): JobRow[] {
    this.flushJournal();
    return this.sql('SELECT * FROM jobs WHERE sources = ? ORDER BY id').all(sources) as JobRow[];
  }

  /**
   * The queue's totals without reading every finished row into JavaScript: the jobs not
   * completed, and of the completed ones the sum of their recorded sizes and the few rows
   * without one. A command-line state folder keeps every file it ever sent (so that re-running
   * a command never re-sends), and the progress event read them all a few times a second: 30 µs
   * per finished job per event, 60 ms of a one-file `laneway upload` after 2,000 (issue 21).
   */
  totalsRows(): { open: TotalsRow[]; completedBytes: number; completedUnsized: TotalsRow[] } {
    this.flushJournal();
    // Only the columns the totals read: a plate's 2,000 queued rows read whole took 15 ms of
    // each progress event, a few times a second; these columns take a fifth of that.
    const open = this.sql(
      `SELECT ${TOTALS_COLUMNS} FROM jobs WHERE state != 'completed' ORDER BY id`,
    ).all() as TotalsRow[];
    const sum = this.sql(`SELECT COALESCE(SUM(size), 0) AS bytes FROM jobs WHERE state = 'completed'`).get() as {
      bytes: number;
    };
    const unsized = this.sql(
      `SELECT ${TOTALS_COLUMNS} FROM jobs WHERE state = 'completed' AND size IS NULL ORDER BY id`,
    ).all() as TotalsRow[];
    return { open, completedBytes: sum.bytes, completedUnsized: unsized };
  }

  groupJobs(groupId: number): JobRow[] {
    this.flushJournal();
    return this.sql('SELECT * FROM jobs WHERE group_id = ? ORDER BY id').all(groupId) as JobRow[];
  }

  /**
   * Queued jobs of a profile that may start now, best first. With `readsInOrder` (a Flow
   * profile), read 2 of a lane or sample waits until its read 1 has ended (queue-queries.ts).
   */
  runnable(profileId: string, at: number, limit: number, readsInOrder = false): JobRow[] {
    return this.sql(
      `SELECT * FROM jobs WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ?${
        readsInOrder ? ` AND ${READ2_WAITS_FOR_READ1}` : ''
      } ORDER BY priority, id LIMIT ?`,
    ).all(profileId, at, limit) as JobRow[];
  }

  /**
   * As `runnable`, only what the scheduler sizes a small file by. The next few queued files are
   * asked for at each pass, and the send window usually admits one of them: whole rows, each
   * some twenty columns made into an object, cost 10 µs apiece, and the eight asked for took a
   * tenth of the queue's thread with 2,000 small files (issue 21). The launched ones are read whole.
   */
  runnableHeads(profileId: string, at: number, limit: number, readsInOrder = false): JobHead[] {
    return this.sql(
      `SELECT id, sources, size, chunk_size FROM jobs WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ?${
        readsInOrder ? ` AND ${READ2_WAITS_FOR_READ1}` : ''
      } ORDER BY priority, id LIMIT ?`,
    ).all(profileId, at, limit) as JobHead[];
  }

  /** Applies column changes to a job (and stamps it). */
  update(id: number, changes: Partial<Omit<JobRow, 'id'>>): JobRow {
    this.write(id, changes);
    return this.job(id)!;
  }

  /**
   * As `update`, for a row the caller has just read in the same turn: answers it with the
   * changes applied instead of reading it back (a small file's launch and completion read
   * their row back three times, issue 21).
   */
  updateKnown(row: JobRow, changes: Partial<Omit<JobRow, 'id'>>): JobRow {
    const updated = this.inTurn(() => this.write(row.id, changes));
    return { ...row, ...changes, updated };
  }

  private write(id: number, changes: Partial<Omit<JobRow, 'id'>>): string {
    this.flushJournal();
    const keys = Object.keys(changes);
    const sets = keys.map((k) => `${k} = @${k}`).join(', ');
    const updated = this.stamp();
    this.sql(`UPDATE jobs SET ${sets}${sets ? ', ' : ''}updated = @updated WHERE id = @id`).run({
      ...changes,
      updated,
      id,
    });
    return updated;
  }

  /** On start: jobs that were running when the process died go back to the queue. */
  resetRunning(): number {
    return this.sql(
      `UPDATE jobs SET state = 'queued', waiting_reason = NULL WHERE state IN ('hashing', 'uploading', 'waiting')`,
    ).run().changes;
  }

  /** The journal of a job: acknowledged chunks by index. */
  journal(jobId: number): Map<number, { sha256: string; size: number }> {
    this.flushJournal();
    const rows = this.sql('SELECT idx, sha256, size FROM chunks WHERE job_id = ?').all(jobId) as Array<{
      idx: number;
      sha256: string;
      size: number;
    }>;
    return new Map(rows.map((r) => [r.idx, { sha256: r.sha256, size: r.size }]));
  }

  /**
   * Records an acknowledged chunk; the journal rows and the jobs' progress of every chunk
   * acknowledged in the same turn of the event loop are written in one transaction. A crash
   * before that write loses nothing: a resumed job asks the service which chunks it holds.
   * `sha256` is the file's from its start to the chunk's end (job-runner.ts, hashInTurns).
   */
  recordChunk(jobId: number, idx: number, sha256: string, size: number): void {
    this.pendingChunks.push([jobId, idx, sha256, size]);
    if (this.flushArmed) return;
    this.flushArmed = true;
    setImmediate(() => {
      this.flushArmed = false;
      if (this.db.open) this.flushJournal();
    });
  }

  /** Writes the chunks recorded so far (every read and write of jobs does this first). */
  flushJournal(): void {
    if (!this.pendingChunks.length) return;
    const batch = this.pendingChunks;
    this.pendingChunks = [];
    const at = this.stamp();
    this.db.transaction(() => {
      const insert = this.sql('INSERT OR REPLACE INTO chunks (job_id, idx, sha256, size) VALUES (?, ?, ?, ?)');
      for (const c of batch) insert.run(...c);
      // Progress resets the retry count: only faults without progress move towards failure.
      const progress = this.sql(
        'UPDATE jobs SET bytes_sent = (SELECT COALESCE(SUM(size), 0) FROM chunks WHERE job_id = ?), attempts = 0, updated = ? WHERE id = ?',
      );
      for (const job of new Set(batch.map((c) => c[0]))) progress.run(job, at, job);
    })();
  }

  /** Forgets a job's journal when the service holds nothing of it; its byte count follows. */
  forgetJournal(jobId: number): void {
    this.flushJournal();
    this.db.transaction(() => {
      this.sql('DELETE FROM chunks WHERE job_id = ?').run(jobId);
      this.sql('UPDATE jobs SET bytes_sent = 0, updated = ? WHERE id = ?').run(this.stamp(), jobId);
    })();
  }

  /** Starts a job's upload over with a fresh file_id (the source changed or the service lost it). */
  restartJob(id: number, reason: string | null): JobRow {
    this.flushJournal();
    return this.db.transaction(() => {
      this.sql('DELETE FROM chunks WHERE job_id = ?').run(id);
      const row = this.job(id)!;
      return this.update(id, {
        file_id: randomUUID(),
        bytes_sent: 0,
        size: null,
        mtime_ms: null,
        checksum: null,
        restarts: row.restarts + 1,
        error: reason,
      });
    })();
  }

  /** Marks a job complete and remembers its hash for deduplication, in one transaction. */
  complete(id: number, dataId: number, checksum: string, deduplicated: boolean, known?: JobRow): JobRow {
    this.flushJournal();
    return this.inTurn(() =>
      this.db.transaction(() => {
        const row = known ?? this.job(id)!;
        this.sql('INSERT OR REPLACE INTO hash_index (profile_id, checksum, data_id) VALUES (?, ?, ?)').run(
          row.profile_id,
          checksum,
          dataId,
        );
        if (row.size !== null && row.mtime_ms !== null) {
          this.sql('INSERT OR REPLACE INTO file_index (path, size, mtime_ms, checksum) VALUES (?, ?, ?, ?)').run(
            row.sources,
            row.size,
            row.mtime_ms,
            checksum,
          );
        }
        return this.updateKnown(row, {
          state: 'completed',
          data_id: dataId,
          checksum,
          deduplicated: deduplicated ? 1 : 0,
          bytes_sent: row.size ?? row.bytes_sent,
          waiting_reason: null,
          error: null,
        });
      })(),
    );
  }

  /** The checksum known for these exact sources (same size and mtime), if hashed before. */
  knownChecksum(sources: string, size: number, mtimeMs: number): string | null {
    const row = this.sql('SELECT checksum FROM file_index WHERE path = ? AND size = ? AND mtime_ms = ?').get(
      sources,
      size,
      mtimeMs,
    ) as { checksum: string } | undefined;
    return row?.checksum ?? null;
  }

  /** The data id a checksum was uploaded as on this profile. */
  dataIdFor(profileId: string, checksum: string): number | null {
    const row = this.sql('SELECT data_id FROM hash_index WHERE profile_id = ? AND checksum = ?').get(
      profileId,
      checksum,
    ) as { data_id: number } | undefined;
    return row?.data_id ?? null;
  }

  forgetDataId(profileId: string, checksum: string): void {
    this.sql('DELETE FROM hash_index WHERE profile_id = ? AND checksum = ?').run(profileId, checksum);
  }

  insertGroup(profileId: string, kind: 'sample' | 'lane', name: string, params: Record<string, unknown>): GroupRow {
    const at = this.stamp();
    const info = this.sql(
      `INSERT INTO groups (profile_id, kind, name, params, state, created, updated) VALUES (?, ?, ?, ?, 'uploading', ?, ?)`,
    ).run(profileId, kind, name, JSON.stringify(params), at, at);
    return this.group(Number(info.lastInsertRowid))!;
  }

  group(id: number): GroupRow | undefined {
    return this.sql('SELECT * FROM groups WHERE id = ?').get(id) as GroupRow | undefined;
  }

  groups(): GroupRow[] {
    return this.sql('SELECT * FROM groups ORDER BY id').all() as GroupRow[];
  }

  updateGroup(id: number, changes: Partial<Pick<GroupRow, 'state' | 'created_id' | 'error' | 'params'>>): GroupRow {
    const keys = Object.keys(changes);
    this.sql(`UPDATE groups SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, updated = @updated WHERE id = @id`).run({
      ...changes,
      updated: this.stamp(),
      id,
    });
    // A group's state journals its creation request (group-finisher.ts): on disk before it.
    this.commitTurn();
    return this.group(id)!;
  }

  /** Deletes finished jobs (and groups whose jobs are all gone). */
  clearFinished(): void {
    this.flushJournal();
    this.db.transaction(() => {
      this.sql(
        `DELETE FROM jobs WHERE state IN ('completed', 'cancelled') AND (group_id IS NULL OR group_id IN (SELECT id FROM groups WHERE state IN ('created', 'cancelled')))`,
      ).run();
      this.sql(
        `DELETE FROM groups WHERE state IN ('created', 'cancelled') AND id NOT IN (SELECT group_id FROM jobs WHERE group_id IS NOT NULL)`,
      ).run();
    })();
  }

  settings(): UploadSettings {
    const row = this.sql(`SELECT value FROM settings WHERE key = 'uploads'`).get() as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as UploadSettings) : DEFAULT_SETTINGS;
  }

  saveSettings(settings: UploadSettings): void {
    this.sql(`INSERT OR REPLACE INTO settings (key, value) VALUES ('uploads', ?)`).run(JSON.stringify(settings));
  }
}

/** A job as the desktop API shows it (live speed and ETA come from the progress tracker). */
export function presentJob(
  row: JobRow,
  live?: { bytesSent: number; speed: number; eta: number | null },
  waitsForRead1?: boolean,
): UploadJob {
  return {
    id: row.id,
    profile_id: row.profile_id,
    path: row.path,
    filename: row.filename,
    role: row.role,
    group_id: row.group_id,
    state: row.state,
    priority: RANK_PRIORITY[row.priority] ?? 'normal',
    waiting_reason: row.waiting_reason,
    bytes_total: expectedSize(row),
    bytes_sent: live?.bytesSent ?? row.bytes_sent,
    speed_bps: live?.speed ?? 0,
    eta_seconds: live?.eta ?? null,
    attempts: row.attempts,
    error: row.error,
    data_id: row.data_id,
    checksum: row.checksum,
    deduplicated: row.deduplicated === 1,
    created: row.created,
    updated: row.updated,
    ...(waitsForRead1 === undefined ? {} : { waits_for_read1: waitsForRead1 }),
  };
}

/** A group as the desktop API shows it. */
function noteOf(params: string): string | null {
  try {
    const note = (JSON.parse(params) as { outcome_note?: unknown }).outcome_note;
    return typeof note === 'string' ? note : null;
  } catch {
    return null;
  }
}

export function presentGroup(row: GroupRow, jobIds: number[]): UploadGroup {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    state: row.state,
    created_id: row.created_id,
    error: row.error,
    note: noteOf(row.params),
    job_ids: jobIds,
  };
}
