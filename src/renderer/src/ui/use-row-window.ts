/**
 * Keeps a long table's rows in the DOM only where the page shows them (row-window.ts), scrolling
 * with the page itself rather than in a box of its own. Each row in the DOM is measured by a
 * ResizeObserver, so a row that grows (an error appears) moves those below it; rows never laid
 * out count at `estimate`. Laying out 2,000 rows of an upload queue took most of 10 s of the
 * renderer's long tasks while a plate uploaded (issue 21).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { rowWindow, sameWindow, type RowWindow, type RowWindowOptions } from './row-window';

const DEFAULTS: RowWindowOptions = { overscan: 12, minRows: 60 };

export interface RowWindowHandle<K> {
  window: RowWindow;
  /** For the table's head: the first row (or the spacer before it) starts at its bottom. Without
   *  one, the window is the first `minRows` rows. */
  headRef(el: HTMLElement | null): void;
  /** A stable ref callback for the row of `key`, which measures the row while it is in the DOM. */
  rowRef(key: K): (el: HTMLElement | null) => void;
}

/** The window of `keys` (in display order) for where the page is scrolled. */
export function useRowWindow<K>(keys: readonly K[], estimate: number, options = DEFAULTS): RowWindowHandle<K> {
  const [win, setWin] = useState<RowWindow>(() =>
    rowWindow(
      keys.map(() => estimate),
      0,
      0,
      options,
    ),
  );
  const head = useRef<HTMLElement | null>(null);
  const keysNow = useRef(keys);
  keysNow.current = keys;
  const heights = useRef(new Map<K, number>());
  const refs = useRef(new Map<K, (el: HTMLElement | null) => void>());
  const shown = useRef(new Map<K, HTMLElement>());
  const keyOf = useRef(new WeakMap<Element, K>());
  const frame = useRef(0);

  const compute = useCallback(() => {
    frame.current = 0;
    const el = head.current;
    const h = keysNow.current.map((k) => heights.current.get(k) ?? estimate);
    // Without a head in the page (a short list shows none) the first rows are kept.
    const top = el ? el.getBoundingClientRect().bottom : 0;
    const next = el ? rowWindow(h, -top, window.innerHeight - top, options) : rowWindow(h, 0, 0, options);
    setWin((prev) => (sameWindow(prev, next) ? prev : next));
  }, [estimate, options]);

  const schedule = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(compute);
  }, [compute]);

  // The observer reaches `schedule` through a ref, so that it and the rows' ref callbacks stay
  // the same for the table's life (the rows are memoised on them).
  const scheduleNow = useRef(schedule);
  scheduleNow.current = schedule;
  const observer = useRef<ResizeObserver | null>(null);
  const resizes = useCallback(
    () =>
      (observer.current ??= new ResizeObserver((entries) => {
        let moved = false;
        for (const e of entries) {
          const key = keyOf.current.get(e.target);
          // A row taken out of the DOM reports no size: keep what it measured.
          if (key === undefined || !e.target.isConnected) continue;
          const h = e.borderBoxSize[0]?.blockSize ?? (e.target as HTMLElement).offsetHeight;
          if (Math.abs((heights.current.get(key) ?? -1) - h) < 0.5) continue;
          heights.current.set(key, h);
          moved = true;
        }
        if (moved) scheduleNow.current();
      })),
    [],
  );

  const rowRef = useCallback(
    (key: K) => {
      let ref = refs.current.get(key);
      if (!ref) {
        ref = (el: HTMLElement | null) => {
          const before = shown.current.get(key);
          if (before && before !== el) resizes().unobserve(before);
          if (!el) {
            shown.current.delete(key);
            return;
          }
          shown.current.set(key, el);
          keyOf.current.set(el, key);
          resizes().observe(el);
        };
        refs.current.set(key, ref);
      }
      return ref;
    },
    [resizes],
  );

  const headRef = useCallback((el: HTMLElement | null) => {
    head.current = el;
  }, []);

  // A new list (a file added, a filter typed) is placed before it is painted.
  useLayoutEffect(() => {
    compute();
    // Forget the heights and ref callbacks of rows gone from the list, once they pile up.
    if (refs.current.size > 2 * keys.length + 100) {
      const live = new Set(keys);
      for (const k of [...refs.current.keys()]) if (!live.has(k)) refs.current.delete(k);
      for (const k of [...heights.current.keys()]) if (!live.has(k)) heights.current.delete(k);
    }
  }, [keys, compute]);

  useEffect(() => {
    // Rows shown before a remount (React's strict mode runs effects twice) are observed again.
    for (const el of shown.current.values()) resizes().observe(el);
    // Capture: a scroll of any box the table is in moves it too.
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule, { passive: true });
    return () => {
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
      observer.current?.disconnect();
      observer.current = null;
    };
  }, [schedule, resizes]);

  return { window: win, headRef, rowRef };
}
