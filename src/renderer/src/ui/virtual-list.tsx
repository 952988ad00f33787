/**
 * A fixed-row-height virtual list: only the rows in view (plus a margin) are in the DOM, so a
 * 100,000-line log scrolls as smoothly as a 100-line one. `follow` keeps the view pinned to the
 * end while the user has not scrolled up.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  height: number;
  renderRow(item: T, index: number): ReactNode;
  follow?: boolean;
  /** The widest row in characters of the list's monospace font: wider rows scroll sideways. */
  columns?: number;
  label: string;
  testId?: string;
}

const OVERSCAN = 10;

/** Renders the visible window of `items`. */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  renderRow,
  follow,
  columns,
  label,
  testId,
}: VirtualListProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !follow || !pinned.current) return;
    el.scrollTop = el.scrollHeight;
    setScrollTop(el.scrollTop);
  }, [items.length, follow]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let lastTop = el.scrollTop;
    // Scroll events arrive after the fact, when more rows may already have been added: only a
    // move upwards unpins (the user went back to read), and reaching the end pins again.
    const onScroll = () => {
      const top = el.scrollTop;
      const atEnd = top + el.clientHeight >= el.scrollHeight - rowHeight * 2;
      if (atEnd) pinned.current = true;
      else if (top < lastTop - 1) pinned.current = false;
      lastTop = top;
      setScrollTop(top);
    };
    // End always means "follow from here", however many rows arrive before the scroll lands.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'End') return;
      e.preventDefault();
      pinned.current = true;
      el.scrollTop = el.scrollHeight;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    el.addEventListener('keydown', onKey);
    return () => {
      el.removeEventListener('scroll', onScroll);
      el.removeEventListener('keydown', onKey);
    };
  }, [rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} role="listitem" className="vrow" style={{ top: i * rowHeight, height: rowHeight }}>
        {renderRow(items[i] as T, i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      className="vlist"
      style={{ height }}
      tabIndex={0}
      role="list"
      aria-label={label}
      data-testid={testId}
      data-rows={items.length}
    >
      {/* Rows are positioned absolutely and so give the list no width of their own: the widest
          row's width (16 px is a row's side padding) lets a long line scroll into view. */}
      <div
        style={{
          height: items.length * rowHeight,
          position: 'relative',
          minWidth: '100%',
          width: columns ? `calc(${columns}ch + 16px)` : undefined,
        }}
      >
        {rows}
      </div>
    </div>
  );
}
