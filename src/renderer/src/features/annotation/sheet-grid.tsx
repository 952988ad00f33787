/**
 * The spreadsheet grid of the annotation editor: virtualised rows (2,000 rows cost what 30
 * do), keyboard navigation and editing as in Excel (arrows, Tab, Enter/F2 to edit, typing
 * replaces, Escape cancels, Delete clears), paste of a block copied from Excel, and each
 * validation problem on its cell.
 */
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useAppStore } from '../../store';
import { parsePastedBlock } from '../../../../shared/sheets';

export const ROW_HEIGHT = 28;
/**
 * The grid's scroll height follows the window: at most 460 px, and small enough on a 700 px
 * high window that the checks under the grid stay in sight (issue 16 item 7).
 */
function viewHeight(): number {
  const h = typeof window === 'undefined' ? 900 : window.innerHeight;
  return Math.max(168, Math.min(460, Math.round(h * 0.42)));
}
function useViewHeight(): number {
  const [h, setH] = useState(viewHeight);
  useEffect(() => {
    const on = () => setH(viewHeight());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}
const OVERSCAN = 8;

/** Problems on one cell: the worst level wins the colour; all messages are shown. */
export interface CellIssue {
  level: 'error' | 'warning';
  messages: string[];
}
export type IssueMap = Map<number, Map<number, CellIssue>>;

export interface Cursor {
  row: number;
  col: number;
}

interface RowProps {
  index: number;
  /** The sheet row number shown for grid row 0. */
  firstRow: number;
  values: string[];
  width: number;
  activeCol: number;
  editing: boolean;
  issues: Map<number, CellIssue> | undefined;
  selected: boolean;
  onCellDown(row: number, col: number): void;
  onCommit(value: string, move: 'down' | 'right' | 'left' | 'none' | 'cancel'): void;
  draft: string;
}

const GridRow = memo(function GridRow(p: RowProps) {
  const cells = [];
  for (let c = 0; c < p.width; c++) {
    const issue = p.issues?.get(c);
    const active = c === p.activeCol;
    const cls = `gcell${active ? ' gcell-active' : ''}${issue ? ` gcell-${issue.level}` : ''}`;
    cells.push(
      <div
        key={c}
        id={`cell-${p.index}-${c}`}
        role="gridcell"
        aria-colindex={c + 2}
        aria-selected={active}
        aria-invalid={issue?.level === 'error' ? true : undefined}
        aria-description={issue ? issue.messages.join(' ') : undefined}
        title={issue ? issue.messages.join('\n') : undefined}
        className={cls}
        onMouseDown={() => p.onCellDown(p.index, c)}
      >
        {active && p.editing ? <CellEditor initial={p.draft} onCommit={p.onCommit} /> : p.values[c]}
      </div>,
    );
  }
  return (
    <div
      role="row"
      aria-rowindex={p.index + 2}
      className={`grow${p.selected ? ' grow-selected' : ''}`}
      style={{ top: p.index * ROW_HEIGHT }}
    >
      <div role="rowheader" className="gcell grow-num">
        {p.index + p.firstRow}
      </div>
      {cells}
    </div>
  );
});

/** The in-cell editor: its own state, so typing re-renders one input and nothing else. */
function CellEditor({ initial, onCommit }: { initial: string; onCommit: RowProps['onCommit'] }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (move: Parameters<RowProps['onCommit']>[1]) => {
    if (done.current) return;
    done.current = true;
    onCommit(value, move);
  };
  return (
    <input
      className="gcell-input"
      aria-label="Cell value"
      autoFocus
      value={value}
      data-testid="cell-editor"
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish('none')}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish('down');
        else if (e.key === 'Tab') {
          e.preventDefault();
          finish(e.shiftKey ? 'left' : 'right');
        } else if (e.key === 'Escape') finish('cancel');
        e.stopPropagation();
      }}
    />
  );
}

export interface SheetGridProps {
  issues: IssueMap;
  cursor: Cursor;
  onCursor(c: Cursor): void;
  selectedRows: Set<number>;
  /** The sheet row number of grid row 0 (2, or more under a title above the headers). */
  firstRow: number;
}

/** Renders the grid of the store's sheet. */
export function SheetGrid({ issues, cursor, onCursor, selectedRows, firstRow }: SheetGridProps) {
  const headers = useAppStore((s) => s.sheetHeaders);
  const rows = useAppStore((s) => s.sheetRows);
  const setCell = useAppStore((s) => s.setCell);
  const pasteBlock = useAppStore((s) => s.pasteBlock);
  const addRows = useAppStore((s) => s.addRows);
  const [editing, setEditing] = useState<{ draft: string } | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const width = headers.length;
  const VIEW_HEIGHT = useViewHeight();

  // Keep the cursor in view when it moves by keyboard (the header row stays on top, sticky).
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    const top = cursor.row * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + VIEW_HEIGHT) el.scrollTop = top + ROW_HEIGHT - VIEW_HEIGHT;
  }, [cursor.row, VIEW_HEIGHT]);

  const move = useCallback(
    (dr: number, dc: number) => {
      const row = Math.max(0, Math.min(rows.length - 1, cursor.row + dr));
      const col = Math.max(0, Math.min(width - 1, cursor.col + dc));
      onCursor({ row, col });
    },
    [cursor, rows.length, width, onCursor],
  );

  const onCommit = useCallback(
    (value: string, how: 'down' | 'right' | 'left' | 'none' | 'cancel') => {
      setEditing(null);
      if (how !== 'cancel' && value !== (rows[cursor.row]?.[cursor.col] ?? '')) setCell(cursor.row, cursor.col, value);
      if (how === 'down') {
        if (cursor.row === rows.length - 1) addRows(rows.length, 1);
        onCursor({ row: cursor.row + 1, col: cursor.col });
      } else if (how === 'right') move(0, 1);
      else if (how === 'left') move(0, -1);
      if (how !== 'none') grid.current?.focus();
    },
    [cursor, rows, setCell, addRows, onCursor, move],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing || rows.length === 0) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(1, 0),
      ArrowUp: () => move(-1, 0),
      ArrowRight: () => move(0, 1),
      ArrowLeft: () => move(0, -1),
      Tab: () => move(0, e.shiftKey ? -1 : 1),
      PageDown: () => move(Math.floor(VIEW_HEIGHT / ROW_HEIGHT), 0),
      PageUp: () => move(-Math.floor(VIEW_HEIGHT / ROW_HEIGHT), 0),
      Home: () => onCursor({ row: e.ctrlKey ? 0 : cursor.row, col: 0 }),
      End: () => onCursor({ row: e.ctrlKey ? rows.length - 1 : cursor.row, col: width - 1 }),
      Enter: () => setEditing({ draft: rows[cursor.row]?.[cursor.col] ?? '' }),
      F2: () => setEditing({ draft: rows[cursor.row]?.[cursor.col] ?? '' }),
      Delete: () => setCell(cursor.row, cursor.col, ''),
      Backspace: () => setCell(cursor.row, cursor.col, ''),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Typing on a cell replaces its content, as in Excel.
      e.preventDefault();
      setEditing({ draft: e.key });
    }
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const visible = [];
  for (let r = first; r < last; r++) {
    const active = r === cursor.row;
    visible.push(
      <GridRow
        key={r}
        index={r}
        firstRow={firstRow}
        values={rows[r]!}
        width={width}
        activeCol={active ? cursor.col : -1}
        editing={active && editing !== null}
        draft={active && editing ? editing.draft : ''}
        issues={issues.get(r)}
        selected={selectedRows.has(r)}
        onCellDown={(row, col) => {
          if (editing) return;
          onCursor({ row, col });
        }}
        onCommit={onCommit}
      />,
    );
  }
  return (
    <div
      ref={grid}
      className="sheet-grid"
      role="grid"
      aria-label="Annotation sheet"
      aria-rowcount={rows.length + 1}
      aria-colcount={width + 1}
      aria-activedescendant={rows.length ? `cell-${cursor.row}-${cursor.col}` : undefined}
      tabIndex={0}
      style={{ height: VIEW_HEIGHT + ROW_HEIGHT }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="sheet-grid"
      onKeyDown={onKeyDown}
      onDoubleClick={() => setEditing({ draft: rows[cursor.row]?.[cursor.col] ?? '' })}
      onPaste={(e) => {
        if (editing) return;
        const block = parsePastedBlock(e.clipboardData.getData('text/plain'));
        if (!block.length) return;
        e.preventDefault();
        pasteBlock(cursor.row, cursor.col, block);
      }}
    >
      <div role="row" aria-rowindex={1} className="grow grow-head">
        <div role="columnheader" className="gcell grow-num">
          {firstRow - 1}
        </div>
        {headers.map((h, c) => (
          <div key={c} role="columnheader" aria-colindex={c + 2} className="gcell">
            {h}
          </div>
        ))}
      </div>
      <div className="sheet-body" role="rowgroup">
        <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative', width: (width + 1) * 150 }}>
          {visible}
        </div>
      </div>
    </div>
  );
}
