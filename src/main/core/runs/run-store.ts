/** Watched folders and detected runs, in the queue database (one owning process). */
import type Database from 'better-sqlite3';
import { commitOpenTurn } from '../uploads/job-store';
import type {
  InstrumentKind,
  Proposal,
  Run,
  RunState,
  Watcher,
  WatcherLaunch,
} from '../../../shared/desktop-api/contract';

interface WatcherRow {
  id: number;
  path: string;
  kind: InstrumentKind;
  auto_upload: number;
  polling: number;
  settle_seconds: number;
  enabled: number;
  error: string | null;
  last_scan: string | null;
  sample_metadata: string;
  launch: string | null;
}

export interface RunRow {
  id: number;
  watcher_id: number;
  path: string;
  name: string;
  kind: InstrumentKind;
  state: RunState;
  timeline: string;
  error: string | null;
  proposal: string | null;
  group_ids: string;
  job_ids: string;
  dismissed: number;
  last_change: number;
  /** null: not launched; `launching`: the request may have reached the service; `launched`; `failed`. */
  launch_state: 'launching' | 'launched' | 'failed' | null;
  execution_id: number | null;
  updated: string;
}

export type WatcherConfig = Omit<Watcher, 'status' | 'not_runs'>;

function toWatcher(r: WatcherRow): WatcherConfig {
  return {
    id: r.id,
    path: r.path,
    kind: r.kind,
    auto_upload: !!r.auto_upload,
    polling: !!r.polling,
    settle_seconds: r.settle_seconds,
    enabled: !!r.enabled,
    error: r.error,
    last_scan: r.last_scan,
    sample_metadata: JSON.parse(r.sample_metadata) as Record<string, unknown>,
    launch: r.launch ? (JSON.parse(r.launch) as WatcherLaunch) : null,
  };
}

/** A run as the desktop API shows it. */
export function presentRun(r: RunRow): Run {
  return {
    id: r.id,
    watcher_id: r.watcher_id,
    path: r.path,
    name: r.name,
    kind: r.kind,
    state: r.state,
    timeline: JSON.parse(r.timeline) as Run['timeline'],
    error: r.error,
    proposal: r.proposal ? (JSON.parse(r.proposal) as Proposal) : null,
    group_ids: JSON.parse(r.group_ids) as number[],
    job_ids: JSON.parse(r.job_ids) as number[],
    execution_id: r.execution_id,
    updated: r.updated,
  };
}

export class RunStore {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  watchers(): WatcherConfig[] {
    return (this.db.prepare('SELECT * FROM watchers ORDER BY id').all() as WatcherRow[]).map(toWatcher);
  }

  watcher(id: number): WatcherConfig | undefined {
    const row = this.db.prepare('SELECT * FROM watchers WHERE id = ?').get(id) as WatcherRow | undefined;
    return row ? toWatcher(row) : undefined;
  }

  addWatcher(w: {
    path: string;
    kind: InstrumentKind;
    auto_upload: boolean;
    polling: boolean;
    settle_seconds: number;
    sample_metadata?: Record<string, unknown>;
    launch?: WatcherLaunch | null;
  }): WatcherConfig {
    const info = this.db
      .prepare(
        'INSERT INTO watchers (path, kind, auto_upload, polling, settle_seconds, sample_metadata, launch) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        w.path,
        w.kind,
        w.auto_upload ? 1 : 0,
        w.polling ? 1 : 0,
        w.settle_seconds,
        JSON.stringify(w.sample_metadata ?? {}),
        w.launch ? JSON.stringify(w.launch) : null,
      );
    return this.watcher(Number(info.lastInsertRowid))!;
  }

  updateWatcher(id: number, changes: Partial<WatcherConfig>): WatcherConfig {
    const cols: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(changes))
      if (k !== 'id' && v !== undefined)
        // null clears a nullable column (launch); objects are stored as JSON.
        cols[k] = typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
    if (Object.keys(cols).length)
      this.db
        .prepare(
          `UPDATE watchers SET ${Object.keys(cols)
            .map((k) => `${k} = @${k}`)
            .join(', ')} WHERE id = @id`,
        )
        .run({ ...cols, id });
    return this.watcher(id)!;
  }

  removeWatcher(id: number): void {
    this.db.prepare('DELETE FROM watchers WHERE id = ?').run(id);
  }

  runs(watcherId?: number): RunRow[] {
    return watcherId === undefined
      ? (this.db.prepare('SELECT * FROM runs WHERE dismissed = 0 ORDER BY id').all() as RunRow[])
      : (this.db
          .prepare('SELECT * FROM runs WHERE dismissed = 0 AND watcher_id = ? ORDER BY id')
          .all(watcherId) as RunRow[]);
  }

  run(id: number): RunRow | undefined {
    return this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
  }

  runByPath(path: string): RunRow | undefined {
    return this.db.prepare('SELECT * FROM runs WHERE path = ?').get(path) as RunRow | undefined;
  }

  insertRun(watcherId: number, path: string, name: string, kind: InstrumentKind): RunRow {
    const at = this.stamp();
    const info = this.db
      .prepare(
        `INSERT INTO runs (watcher_id, path, name, kind, state, timeline, updated) VALUES (?, ?, ?, ?, 'detected', ?, ?)`,
      )
      .run(watcherId, path, name, kind, JSON.stringify([{ state: 'detected', at, note: null }]), at);
    return this.run(Number(info.lastInsertRowid))!;
  }

  /** Moves a run to a state, appending to its timeline only when the state changes. */
  setState(
    id: number,
    state: RunState,
    note: string | null,
    extra: Partial<
      Pick<RunRow, 'error' | 'proposal' | 'group_ids' | 'job_ids' | 'last_change' | 'launch_state' | 'execution_id'>
    > = {},
  ): RunRow {
    const row = this.run(id)!;
    const timeline = JSON.parse(row.timeline) as Array<{ state: RunState; at: string; note: string | null }>;
    const at = this.stamp();
    if (row.state !== state) timeline.push({ state, at, note });
    else if (timeline.length && timeline[timeline.length - 1]!.note !== note)
      // Same state, new reason (another file awaited): the timeline names what it waits for now.
      timeline[timeline.length - 1] = { ...timeline[timeline.length - 1]!, note };
    const cols: Record<string, unknown> = { ...extra, state, timeline: JSON.stringify(timeline), updated: at };
    this.db
      .prepare(
        `UPDATE runs SET ${Object.keys(cols)
          .map((k) => `${k} = @${k}`)
          .join(', ')} WHERE id = @id`,
      )
      .run({ ...cols, id });
    return this.run(id)!;
  }

  /** Journals a run's launch without moving its state (the request is about to be sent). */
  setLaunch(id: number, launch_state: RunRow['launch_state'], error: string | null = null): RunRow {
    this.db
      .prepare('UPDATE runs SET launch_state = ?, error = ?, updated = ? WHERE id = ?')
      .run(launch_state, error, this.stamp(), id);
    // On disk before the request, even when the upload queue's turn holds the connection's writes.
    commitOpenTurn(this.db);
    return this.run(id)!;
  }

  dismiss(id: number): void {
    this.db.prepare('UPDATE runs SET dismissed = 1 WHERE id = ?').run(id);
  }
}
