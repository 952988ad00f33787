/**
 * Which thread runs the output (copying records into blocks, writing, compressing): this one,
 * or the output thread. The thread pays only when a core is free to run it beside the parser;
 * on a busy machine, or for a small lane, its start and hand-overs are loss. The load average
 * says little about that (it lags a minute, and counts our own last run), so it is measured:
 * the lane runs in windows of reads, each timed in the mode it ran, from the reads whose output
 * is done (with the thread: the batches it has run, not those queued, so a filling pipeline
 * does not flatter it). The thread gets a window as soon as it has started and one window here
 * has set a baseline; it keeps the files while it is at least as fast, hands them back when it
 * is slower by more than the margin, and is tried again after twice as many windows each time.
 * While it wins, its windows are compared with its own best: a fall by a quarter says the
 * neighbours changed, and one window here refreshes the baseline (a quiet machine never pays
 * for one).
 */

export type OutputMode = 'here' | 'thread';

/** Decides the output's mode from what the lane measured; called every 1,024 reads. */
export interface OutputChooser {
  /**
   * `mode` in use, `completed` reads whose output is done (cumulative), `ms` a monotonic clock,
   * `threadReady` whether the output thread has started. Returns the mode wanted next ('thread'
   * before the thread is ready: wait for it).
   */
  next(mode: OutputMode, completed: number, ms: number, threadReady: boolean): OutputMode;
}

/** Input bytes below which a lane is done before an output thread would have started. */
export const THREAD_MIN_BYTES = 48 * 1024 * 1024;

/** A fixed mode (tests, and lanes too small for a thread); 'thread' waits for the thread. */
export const fixedMode = (mode: OutputMode): OutputChooser => ({ next: () => mode });

export interface MeasuredChooserOptions {
  /** Reads per window (default 65,536: some 25 MB of 150 bp reads, 30 to 100 ms; the first a quarter). */
  windowReads?: number;
  /** The thread keeps the files unless it is slower than this fraction of the baseline. */
  margin?: number;
  /** A thread window this much slower than the thread's best refreshes the baseline. */
  fall?: number;
}

/** One window's rate, and the mode it ran in (for the report and the tests). */
export interface ModeWindow {
  mode: OutputMode;
  readsPerMs: number;
}

export class MeasuredChooser implements OutputChooser {
  private readonly windowReads: number;
  private readonly margin: number;
  private start: { mode: OutputMode; completed: number; ms: number } | null = null;
  /** The last window's rate here: what the thread has to beat. */
  private baseline: number | null = null;
  /** Windows here to run before trying the thread (again). */
  private wait = 0;
  private waited = 0;
  private readonly fall: number;
  /** The thread's best window since it last took the files. */
  private best = 0;
  readonly windows: ModeWindow[] = [];

  constructor(options: MeasuredChooserOptions = {}) {
    this.windowReads = options.windowReads ?? 65_536;
    this.margin = options.margin ?? 0.05;
    this.fall = options.fall ?? 0.25;
  }

  next(mode: OutputMode, completed: number, ms: number, threadReady: boolean): OutputMode {
    const s = this.start;
    if (!s || s.mode !== mode) {
      // A new window begins with each switch (the switch's own cost counts in it).
      this.start = { mode, completed, ms };
      return mode;
    }
    // The first window, the baseline, is a quarter as long: on a quiet machine it is what the
    // lane pays before the thread takes the files.
    const size = this.windows.length === 0 ? this.windowReads / 4 : this.windowReads;
    if (completed - s.completed < size) return mode;
    const rate = (completed - s.completed) / Math.max(ms - s.ms, 1e-3);
    this.windows.push({ mode, readsPerMs: rate });
    this.start = { mode, completed, ms };
    if (mode === 'here') {
      this.baseline = rate;
      if (!threadReady || ++this.waited <= this.wait) return 'here';
      this.waited = 0;
      this.best = 0;
      return 'thread';
    }
    if (this.baseline !== null && rate < this.baseline * (1 - this.margin)) {
      // Slower than writing here: hand the files back, try again later.
      this.wait = Math.max(1, this.wait * 2);
      return 'here';
    }
    if (rate < this.best * (1 - this.fall)) {
      // Still ahead, but the machine changed: one window here for a fresh baseline.
      this.wait = 0;
      return 'here';
    }
    this.best = Math.max(this.best, rate);
    return 'thread';
  }
}
