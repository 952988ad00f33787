/**
 * The queue's files, one row each, newest first. Only the rows near the view are in the page
 * (use-row-window.ts): a plate of 2,000 files scrolls like one of 20. Beyond a screenful, a
 * filter finds files by name and state.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../store';
import { plural } from '../../ui/format';
import { ColumnWidths } from '../../ui/column-widths';
import { SpacerRow } from '../../ui/spacer-row';
import { useRowWindow } from '../../ui/use-row-window';
import { filteredJobIds, jobStateCounts, NO_FILTER, type UploadListFilter } from './upload-list-filter';
import { UploadRow } from './upload-row';

/** A row's height before it is laid out, px: a file's name over its role, in Chromium. */
const ROW_ESTIMATE = 43;
/** From this many files on, the table offers its filter. */
const FILTER_FROM = 20;
/** The columns and their fixed widths (ColumnWidths). */
const COLUMNS = [
  ['File', '36%'],
  ['State', '14%'],
  ['Progress', '16%'],
  ['Speed', '10%'],
  ['ETA', '7%'],
  ['Actions', '17%'],
] as const;

export function UploadTable() {
  const [filter, setFilter] = useState<UploadListFilter>(NO_FILTER);
  const ids = useAppStore(useShallow((s) => filteredJobIds(s.uploadJobs, filter)));
  const counts = useAppStore(useShallow((s) => jobStateCounts(s.uploadJobs)));
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const { window: w, headRef, rowRef } = useRowWindow(ids, ROW_ESTIMATE);
  const filtering = filter.text.trim() !== '' || filter.state !== '';
  return (
    <>
      {(total >= FILTER_FROM || filtering) && (
        <div className="toolbar" role="search" aria-label="Find files in the queue">
          <label className="field">
            <span>Find a file</span>
            <input
              type="search"
              value={filter.text}
              placeholder="name or folder"
              onChange={(e) => setFilter({ ...filter, text: e.target.value })}
              data-testid="uploads-find"
            />
          </label>
          <label className="field">
            <span>State</span>
            <select
              value={filter.state}
              onChange={(e) => setFilter({ ...filter, state: e.target.value as UploadListFilter['state'] })}
              data-testid="uploads-state-filter"
            >
              <option value="">All ({total.toLocaleString()})</option>
              {Object.entries(counts).map(([state, n]) => (
                <option key={state} value={state}>
                  {state} ({n.toLocaleString()})
                </option>
              ))}
            </select>
          </label>
          <p className="muted" data-testid="uploads-shown">
            {filtering ? `${plural(ids.length, 'file')} of ${total.toLocaleString()}` : plural(total, 'file')}
          </p>
        </div>
      )}
      {/* aria-rowcount: a screen reader hears the whole queue's size, not the rows in the page. */}
      <table
        className="grid uploads-table"
        data-testid="uploads-table"
        data-rows={ids.length}
        aria-rowcount={ids.length + 1}
      >
        <ColumnWidths widths={COLUMNS.map(([, width]) => width)} />
        <thead ref={headRef}>
          <tr aria-rowindex={1}>
            {COLUMNS.map(([name]) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {w.padTop > 0 && <SpacerRow height={w.padTop} columns={COLUMNS.length} />}
          {ids.slice(w.start, w.end).map((id, i) => (
            <UploadRow key={id} id={id} index={w.start + i} rowRef={rowRef(id)} />
          ))}
          {w.padBottom > 0 && <SpacerRow height={w.padBottom} columns={COLUMNS.length} />}
        </tbody>
      </table>
      {total === 0 && <p className="muted">The queue is empty.</p>}
      {total > 0 && ids.length === 0 && <p className="muted">No file in the queue matches.</p>}
    </>
  );
}
