/**
 * The output's thread is chosen from what the lane measures (output-mode.ts), never from the
 * load average: here, the measurements are injected (reads done and a clock), so each decision
 * is checked without timing anything.
 */
import { describe, expect, it } from 'vitest';
import { MeasuredChooser, type OutputMode } from '../../../src/service/tools/demux/output-mode';

/**
 * Drives a chooser as the demultiplexer does (a call every 1,024 reads) through a lane whose
 * rate, in reads per ms, depends on the mode and on the windows closed so far; returns the mode
 * of each window the chooser closed (windows of 4,096 reads).
 */
function drive(
  windows: number,
  rate: (mode: OutputMode, window: number) => number,
  ready: (window: number) => boolean = () => true,
  margin?: number,
): { modes: OutputMode[]; chooser: MeasuredChooser } {
  const chooser = new MeasuredChooser({ windowReads: 4096, margin });
  let mode: OutputMode = 'here';
  let reads = 0;
  let ms = 0;
  while (chooser.windows.length < windows) {
    const w = chooser.windows.length;
    reads += 1024;
    ms += 1024 / rate(mode, w);
    mode = chooser.next(mode, reads, ms, ready(w));
  }
  return { modes: chooser.windows.map((w) => w.mode), chooser };
}

describe('the output thread is chosen by measurement', () => {
  it('keeps the files here until the thread has started, then tries it after one window here', () => {
    const { modes } = drive(
      6,
      (mode) => (mode === 'thread' ? 2 : 1),
      (w) => w >= 2,
    );
    expect(modes.slice(0, 3)).toEqual(['here', 'here', 'here']);
    expect(modes[3]).toBe('thread');
  });

  it('keeps the thread while it is faster, with no window here on a steady machine', () => {
    const { modes, chooser } = drive(40, (mode) => (mode === 'thread' ? 1.8 : 1));
    expect(modes[0]).toBe('here');
    expect(modes.slice(1).every((m) => m === 'thread')).toBe(true);
    expect(chooser.windows[1]!.readsPerMs).toBeCloseTo(1.8, 5);
  });

  it('refreshes the baseline with one window here when the thread falls by a quarter from its best', () => {
    // The thread wins at 1.8, then the neighbours take a core: it falls to 1.2, and writing
    // here falls to 0.6; one window here shows the thread still wins, and it keeps the files.
    const { modes } = drive(30, (mode, w) => (w < 8 ? (mode === 'thread' ? 1.8 : 1) : mode === 'thread' ? 1.2 : 0.6));
    const after = modes.slice(8);
    expect(after.filter((m) => m === 'here').length).toBe(1);
    expect(after.slice(-10).every((m) => m === 'thread')).toBe(true);
  });

  it('hands the files back when the thread is slower (a busy machine), and tries it less and less often', () => {
    const { modes } = drive(40, (mode) => (mode === 'thread' ? 0.8 : 1));
    const thread = modes.filter((m) => m === 'thread').length;
    expect(modes[1]).toBe('thread');
    expect(modes[2]).toBe('here');
    expect(thread).toBeLessThanOrEqual(6);
    // Each try comes later than the one before.
    const tries = modes.flatMap((m, i) => (m === 'thread' ? [i] : []));
    const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]!);
  });

  it('does not hand back for a difference within the margin', () => {
    const { modes } = drive(12, (mode) => (mode === 'thread' ? 0.97 : 1), undefined, 0.05);
    expect(modes.slice(1, 5)).toEqual(['thread', 'thread', 'thread', 'thread']);
  });

  it('follows the machine: a thread that wins while a core is free loses once the neighbours take it', () => {
    // A free core for the first 10 windows, then none: the thread is slower than writing here.
    const { modes } = drive(40, (mode, w) => (mode === 'here' ? 1 : w < 10 ? 1.8 : 0.7));
    expect(modes.slice(1, 5)).toEqual(['thread', 'thread', 'thread', 'thread']);
    expect(modes.slice(-10).filter((m) => m === 'thread').length).toBeLessThanOrEqual(2);
  });

  it('sets its baseline in a quarter window, so a quiet machine hands the files over early', () => {
    const c = new MeasuredChooser({ windowReads: 65_536 });
    expect(c.next('here', 1024, 1, true)).toBe('here');
    expect(c.next('here', 16_384, 10, true)).toBe('here');
    expect(c.next('here', 17_408, 11, true)).toBe('thread');
    expect(c.windows).toEqual([{ mode: 'here', readsPerMs: 16_384 / 10 }]);
    // Later windows are whole ones.
    expect(c.next('thread', 17_408, 11, true)).toBe('thread');
    expect(c.next('thread', 17_408 + 65_535, 40, true)).toBe('thread');
    expect(c.windows).toHaveLength(1);
  });

  it('never asks for the thread while it has not started', () => {
    expect(
      drive(
        10,
        () => 1,
        () => false,
      ).modes.every((m) => m === 'here'),
    ).toBe(true);
  });
});
