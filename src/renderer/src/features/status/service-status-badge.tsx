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

/** The active profile when it is a lab service on the network, else null. */
function useRemoteProfile(): { name: string; url: string } | null {
  const name = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.name ?? null);
  const url = useAppStore((s) => {
    const p = s.profiles?.profiles.find((x) => x.id === s.profiles?.active_id);
    return p?.kind === 'remote' ? (p.url ?? null) : null;
  });
  return url ? { name: name ?? url, url } : null;
}

export function ServiceStatusBadge() {
  const status = useAppStore((s) => s.serviceStatus);
  const reachable = useAppStore((s) => s.serviceReachable);
  const remote = useRemoteProfile();
  // A lab service is active: the header names it, not the local service running beside it.
  if (remote)
    return (
      <span
        className={`badge badge-${reachable ? 'ok' : 'bad'}`}
        role="status"
        aria-live="polite"
        data-testid="service-status"
        data-state={reachable ? 'running' : 'unreachable'}
      >
        {reachable ? 'Service running' : 'Service unreachable'}
        <span className="badge-detail">
          {' '}
          · remote {remote.name} {remote.url}
        </span>
      </span>
    );
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
