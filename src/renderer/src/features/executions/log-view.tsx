/**
 * The execution log: a virtual list (only visible lines are in the DOM) that follows new lines
 * unless the technician scrolled up, with filters by level and process.
 */
import { useMemo, useRef, useState } from 'react';
import type { LogEntry } from '../../service-client/types';
import { VirtualList } from '../../ui/virtual-list';
import type { LogIndex } from './log-index';

const ROW = 18;

function time(l: LogEntry): string {
  return l.timestamp.length > 19 ? l.timestamp.slice(11, 19) : l.timestamp;
}

function line(l: LogEntry): string {
  return `${time(l)} ${l.level.padEnd(5)} [${l.process}] ${l.message}`;
}

/** The length of line(l), without building the string (it runs over every line shown). */
function lineLength(l: LogEntry): number {
  return time(l).length + 1 + Math.max(5, l.level.length) + 2 + l.process.length + 2 + l.message.length;
}

/** Renders the filters and the list; `version` changes whenever `logs` grew. */
export function LogView({ logs, version }: { logs: LogIndex; version: number }) {
  const [level, setLevel] = useState('');
  const [process, setProcess] = useState('');
  const [follow, setFollow] = useState(true);
  // Only the lines added since the last read are scanned (see LogIndex), not the whole log.
  const shown = useMemo(
    () => logs.filtered(level, process),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the index grows in place; version marks growth
    [logs, version, level, process],
  );
  // A line wider than the view scrolls sideways rather than being cut off with an ellipsis. The
  // shown lines grow in place: only those added since the last render are measured.
  const measured = useRef({ of: shown, scanned: 0, widest: 0 });
  const rows = shown.length;
  const columns = useMemo(() => {
    const m = measured.current.of === shown ? measured.current : { of: shown, scanned: 0, widest: 0 };
    for (let i = m.scanned; i < rows; i++) m.widest = Math.max(m.widest, lineLength(shown[i]!));
    m.scanned = rows;
    measured.current = m;
    return m.widest;
  }, [shown, rows]);
  const { levels, processes } = logs;
  return (
    <section className="card" aria-labelledby="log-title">
      <div className="screen-header">
        <h3 id="log-title">Log</h3>
        <div className="screen-actions toolbar">
          <label className="field">
            <span>Level</span>
            <select value={level} onChange={(e) => setLevel(e.target.value)} data-testid="log-level">
              <option value="">All levels</option>
              {levels.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Process</span>
            <select value={process} onChange={(e) => setProcess(e.target.value)} data-testid="log-process">
              <option value="">All processes</option>
              {processes.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
          <label>
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow new lines
          </label>
        </div>
      </div>
      <p className="muted" data-testid="log-count">
        {shown.length.toLocaleString()} of {logs.entries.length.toLocaleString()} lines
      </p>
      <VirtualList
        items={shown}
        rowHeight={ROW}
        height={360}
        follow={follow}
        columns={columns}
        label="Execution log"
        testId="log-list"
        renderRow={(l) => (
          <span
            className={
              l.level === 'ERROR' ? 'log-error' : l.level === 'WARN' || l.level === 'WARNING' ? 'log-warn' : undefined
            }
          >
            {line(l)}
          </span>
        )}
      />
    </section>
  );
}
