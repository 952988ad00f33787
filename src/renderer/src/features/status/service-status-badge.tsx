/** Shows whether the service answers, which one it is, and why not when it does not. */
import { useAppStore } from '../../store';

const LABELS: Record<string, string> = {
  stopped: 'Service stopped',
  starting: 'Starting local service…',
  running: 'Service running',
  restarting: 'Restarting local service…',
  crashed: 'Local service stopped unexpectedly',
  unreachable: 'Service unreachable',
};

export function ServiceStatusBadge() {
  const status = useAppStore((s) => s.serviceStatus);
  if (!status) return <span className="badge badge-muted">Connecting…</span>;
  const tone =
    status.state === 'running' ? 'ok' : status.state === 'crashed' || status.state === 'unreachable' ? 'bad' : 'muted';
  return (
    <span
      className={`badge badge-${tone}`}
      role="status"
      aria-live="polite"
      data-testid="service-status"
      data-state={status.state}
    >
      {LABELS[status.state]}
      {status.state === 'running' && status.url && (
        <span className="badge-detail">
          {' '}
          · {status.mode === 'embedded' ? 'local' : 'remote'} {status.url}
          {status.version ? ` · v${status.version}` : ''}
        </span>
      )}
      {status.error && <span className="badge-detail"> · {status.error}</span>}
    </span>
  );
}
