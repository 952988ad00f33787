/** Shows whether the service answers, which one it is, and why not when it does not. */
import { useEffect } from 'react';
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
function useRemoteProfile(): { name: string; url: string; flow: boolean } | null {
  const name = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.name ?? null);
  const url = useAppStore((s) => {
    const p = s.profiles?.profiles.find((x) => x.id === s.profiles?.active_id);
    return p?.kind === 'remote' ? (p.url ?? null) : null;
  });
  const flow = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.wire === 'flow');
  return url ? { name: name ?? url, url, flow } : null;
}

/**
 * Asks a Laneway lab service's health now and then: only the screens' requests told whether it
 * answers, so before signing in the badge said "Service running" for an address where nothing
 * listens. The profile's own address is asked (signed out, the screens' client falls back to
 * the local service's); an unreachable one is asked again sooner. A Flow server has no health
 * route and is not asked.
 */
function useRemoteHealth(remote: { url: string; flow: boolean } | null, reachable: boolean): void {
  const setReachable = useAppStore((s) => s.setServiceReachable);
  const url = remote && !remote.flow ? remote.url : null;
  useEffect(() => {
    if (!url) return;
    let live = true;
    const probe = () =>
      void fetch(`${url.replace(/\/+$/, '')}/api/health`, { headers: { accept: 'application/json' } }).then(
        (res) => live && setReachable(res.ok),
        () => live && setReachable(false),
      );
    probe();
    const timer = setInterval(probe, reachable ? 30_000 : 5_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [url, reachable, setReachable]);
}

export function ServiceStatusBadge() {
  const status = useAppStore((s) => s.serviceStatus);
  const reachable = useAppStore((s) => s.serviceReachable);
  const remote = useRemoteProfile();
  useRemoteHealth(remote, reachable);
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
