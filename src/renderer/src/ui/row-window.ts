/**
 * Which rows of a long table are in the DOM: those within the viewport and a margin, never fewer
 * than the first `minRows` while the table's top is in view. Rows differ in height (a file's row
 * grows with its error or reason to wait), so heights are given per row: measured ones where the
 * row has been laid out, an estimate for the rest. The rows left out are stood in for by two
 * spacers of their summed heights, so the page scrolls as if every row were there.
 */

export interface RowWindow {
  /** First row in the DOM. */
  start: number;
  /** One past the last row in the DOM. */
  end: number;
  /** Height of the rows before `start`, px. */
  padTop: number;
  /** Height of the rows from `end` on, px. */
  padBottom: number;
}

export interface RowWindowOptions {
  /** Rows kept beyond each edge of the view, so that a scroll shows laid-out rows at once. */
  overscan: number;
  /** Rows always in the DOM from the first visible one on (tests and a first look find them). */
  minRows: number;
}

/**
 * The window of rows for a view from `viewTop` to `viewBottom`, px measured from the top of the
 * first row (negative when the table starts below the top of the view).
 */
export function rowWindow(
  heights: ArrayLike<number>,
  viewTop: number,
  viewBottom: number,
  { overscan, minRows }: RowWindowOptions,
): RowWindow {
  const n = heights.length;
  let y = 0;
  let first = n;
  let last = n;
  for (let i = 0; i < n; i++) {
    const h = heights[i] ?? 0;
    if (first === n && y + h > viewTop) first = i;
    if (y >= viewBottom) {
      last = i;
      break;
    }
    y += h;
  }
  // Scrolled past the end (the list shrank under the view): keep the last rows.
  if (first === n) first = Math.max(0, n - minRows);
  const start = Math.max(0, first - overscan);
  const end = Math.min(n, Math.max(last + overscan, first + minRows));
  let padTop = 0;
  let padBottom = 0;
  for (let i = 0; i < start; i++) padTop += heights[i] ?? 0;
  for (let i = end; i < n; i++) padBottom += heights[i] ?? 0;
  return { start, end, padTop, padBottom };
}

/** True when two windows put the same rows in the DOM with the same spacers. */
export function sameWindow(a: RowWindow, b: RowWindow): boolean {
  return (
    a.start === b.start &&
    a.end === b.end &&
    Math.abs(a.padTop - b.padTop) < 0.5 &&
    Math.abs(a.padBottom - b.padBottom) < 0.5
  );
}
