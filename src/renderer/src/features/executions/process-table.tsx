/** The processes of an execution: state, progress, times, exit code, CPU and memory. */
import type { ProcessExecution } from '../../service-client/types';
import { formatDuration, formatTime } from '../../ui/format';

function elapsed(p: ProcessExecution): number | null {
  if (!p.start_time) return null;
  const end = p.end_time ? Date.parse(p.end_time) : Date.now();
  return (end - Date.parse(p.start_time)) / 1000;
}

/**
 * Renders the table in a focusable region: a per-sample run has many rows and eight columns,
 * so on a narrow window keyboard users scroll it with the arrow keys.
 */
export function ProcessTable({ processes }: { processes: ProcessExecution[] }) {
  // In a card like the log and outputs beside it (it sat bare between them).
  return (
    // A plain card: the scrolling region inside is the one named Processes (two would clash).
    <div className="card">
      <h3>Processes</h3>
      <div
        role="region"
        aria-label="Processes"
        tabIndex={0}
        style={{ overflowX: 'auto', maxHeight: 480, overflowY: 'auto' }}
        data-testid="process-region"
      >
        <table className="grid" data-testid="process-table">
          <caption className="visually-hidden">Processes</caption>
          <thead>
            <tr>
              <th scope="col">Process</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Exit code</th>
              <th scope="col">CPU</th>
              <th scope="col">Memory</th>
            </tr>
          </thead>
          <tbody>
            {processes.map((p) => (
              <tr key={p.name} data-testid={`process-${p.name}`}>
                <td>{p.name}</td>
                <td>
                  <span className={`status-pill status-${p.status}`}>{p.status}</span>
                </td>
                <td>
                  <progress className="progress" max={100} value={p.progress} aria-label={`${p.name} progress`} />{' '}
                  {Math.round(p.progress)}%
                </td>
                <td>{formatTime(p.start_time)}</td>
                <td>{formatDuration(elapsed(p))}</td>
                <td>{p.exit_code ?? '—'}</td>
                <td>{p.resources?.cpu_percent != null ? `${p.resources.cpu_percent.toFixed(0)}%` : '—'}</td>
                <td>{p.resources?.memory_gb != null ? `${p.resources.memory_gb.toFixed(2)} GB` : '—'}</td>
              </tr>
            ))}
            {processes.length === 0 && (
              <tr>
                <td colSpan={8} className="muted">
                  No process has started yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
