/**
 * Says, at the top of every screen, when Laneway has lost the desktop core, the service, or
 * the network, what it is doing about it, and offers an immediate retry.
 */
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';

/** The banner; renders nothing while everything answers. */
export function ConnectionBanner() {
  const { api } = useServices();
  const desktop = useAppStore((s) => s.desktopConnected);
  const reachable = useAppStore((s) => s.serviceReachable);
  const status = useAppStore((s) => s.serviceStatus);
  const setStatus = useAppStore((s) => s.setServiceStatus);
  const setReachable = useAppStore((s) => s.setServiceReachable);
  // While a lab service is active, the local service's state is not what the screens talk to.
  const remoteUrl = useAppStore((s) => {
    const p = s.profiles?.profiles.find((x) => x.id === s.profiles?.active_id);
    return p?.kind === 'remote' && p.wire !== 'flow' ? (p.url ?? null) : null;
  });
  const remote = useAppStore(
    (s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.kind === 'remote',
  );

  let message: string | null = null;
  let detail = '';
  if (!desktop) {
    message = 'Lost the connection to the Laneway desktop core.';
    detail = 'Reconnecting on its own; uploads continue in the background.';
  } else if (status && !remote && status.state !== 'running' && status.state !== 'starting') {
    message =
      status.mode === 'embedded'
        ? 'The local service is restarting.'
        : `The service at ${status.url ?? 'the configured address'} is unreachable.`;
    detail =
      status.mode === 'embedded'
        ? `Laneway restarts it on its own${status.error ? ` (${status.error})` : ''}; queued uploads wait and resume, and this screen carries on when it is back.`
        : 'Laneway keeps trying; queued uploads wait and resume when it answers.';
  } else if (!reachable && !remote && status?.mode === 'embedded') {
    // The local service runs on this computer: the network has nothing to do with it.
    message = 'The local service is restarting.';
    detail = 'This screen carries on when it answers again.';
  } else if (!reachable) {
    message = 'Cannot reach the service.';
    detail = 'Check the network; Laneway retries and the screens refresh when it answers.';
  }
  if (!message) return null;

  const retry = () => {
    // A lab service is asked at its own address: the local service answering says nothing of it
    // (the badge turned green for a lab service where nothing listened).
    if (remoteUrl) {
      void fetch(`${remoteUrl.replace(/\/+$/, '')}/api/health`).then(
        (res) => setReachable(res.ok),
        () => setReachable(false),
      );
      return;
    }
    void api.service.status().then(
      (s) => {
        setStatus(s);
        if (s.state === 'running') setReachable(true);
      },
      () => {},
    );
  };
  return (
    <div className="banner banner-bad" role="alert" data-testid="connection-banner">
      <strong>{message}</strong> <span>{detail}</span>
      {desktop && (
        <button type="button" className="btn btn-small" onClick={retry}>
          Check now
        </button>
      )}
    </div>
  );
}
