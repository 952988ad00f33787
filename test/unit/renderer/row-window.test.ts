/**
 * The window of a long table's rows (ui/row-window.ts): which rows are in the page for a view,
 * with spacers that add up to the rows left out, so the page is as tall as if all were there.
 */
import { describe, expect, it } from 'vitest';
import { rowWindow, sameWindow } from '../../../src/renderer/src/ui/row-window';

const opts = { overscan: 2, minRows: 5 };
const even = (n: number, h = 10) => Array.from({ length: n }, () => h);

/** Spacers and rows together are as tall as every row. */
function coversAll(heights: number[], w: ReturnType<typeof rowWindow>) {
  const inPage = heights.slice(w.start, w.end).reduce((a, b) => a + b, 0);
  expect(w.padTop + inPage + w.padBottom).toBe(heights.reduce((a, b) => a + b, 0));
}

describe('rowWindow', () => {
  it('keeps the first rows while the table starts below the view', () => {
    const h = even(1000);
    // The view ends 100 px above the table.
    expect(rowWindow(h, -900, -100, opts)).toEqual({ start: 0, end: 5, padTop: 0, padBottom: 9950 });
    // Its first 300 px are in view: 30 rows, and the overscan after them.
    expect(rowWindow(h, -500, 300, opts)).toEqual({ start: 0, end: 32, padTop: 0, padBottom: 9680 });
  });

  it('puts the rows in view and the overscan in the page, and no more', () => {
    const h = even(1000);
    // Rows 100 to 129 are in a view from 1,000 to 1,300 px.
    const w = rowWindow(h, 1000, 1300, opts);
    expect(w.start).toBe(98);
    expect(w.end).toBe(132);
    expect(w.padTop).toBe(980);
    coversAll(h, w);
  });

  it('counts each row at its own height', () => {
    // One tall row (an error under the file's name) pushes the rows after it down.
    const h = even(100);
    h[10] = 200;
    // Rows 0 to 9 take 100 px, row 10 the next 200: a view from 250 starts in its tail, and
    // the rows after it (from 300 px) fill it to 400 px.
    const w = rowWindow(h, 250, 400, { overscan: 0, minRows: 1 });
    expect(w.start).toBe(10);
    expect(w.padTop).toBe(100);
    expect(w.end).toBe(21);
    coversAll(h, w);
  });

  it('keeps the last rows when the list shrank under a view scrolled far down', () => {
    const h = even(20);
    const w = rowWindow(h, 5000, 5300, opts);
    expect(w.start).toBe(13);
    expect(w.end).toBe(20);
    expect(w.padBottom).toBe(0);
    coversAll(h, w);
  });

  it('handles an empty list and a list shorter than the window', () => {
    expect(rowWindow([], 0, 900, opts)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
    expect(rowWindow(even(3), 0, 900, opts)).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
  });

  it('tells windows apart by their rows and spacers', () => {
    const a = rowWindow(even(100), 100, 200, opts);
    expect(sameWindow(a, { ...a })).toBe(true);
    expect(sameWindow(a, { ...a, padTop: a.padTop + 3 })).toBe(false);
    expect(sameWindow(a, rowWindow(even(100), 400, 500, opts))).toBe(false);
  });
});
