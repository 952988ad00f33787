/**
 * After a request could not reach the service, the renderer asks the desktop core, the one
 * source of the service's address, where the service is now: the embedded service may have
 * been restarted by the supervisor (on its previous port when that was free, else another).
 * While the core says the local service is restarting, this waits for it to run again.
 * Concurrent failures (every panel of a screen at once) share one rediscovery.
 */
import type { DesktopApi } from '../../../shared/desktop-api/client';
import type { ServiceStatus } from '../../../shared/desktop-api/contract';
import type { TokenSource } from './token-source';

/** How long a failed request waits for a restarting local service before it gives up. */
const RESTART_WAIT_MS = 30_000;

function runningAgain(api: DesktopApi, waitMs: number): Promise<ServiceStatus | null> {
  return new Promise((resolve) => {
    const done = (s: ServiceStatus | null) => {
      offs.forEach((off) => off());
      clearTimeout(timer);
      resolve(s);
    };
    const offs = [
      api.on('service:status-changed', (s) => s.state === 'running' && done(s)),
      api.on('service:restarted', (s) => done(s)),
    ];
    const timer = setTimeout(() => done(null), waitMs);
  });
}

/** Resolves true when the service's address is known afresh (and a retry is worth it). */
export function createRediscovery(
  api: DesktopApi,
  tokens: TokenSource,
  waitMs = RESTART_WAIT_MS,
): () => Promise<boolean> {
  let inflight: Promise<boolean> | null = null;
  const rediscover = async (): Promise<boolean> => {
    let status = await api.service.status().catch(() => null);
    if (!status) return false;
    if (status.mode === 'embedded' && status.state !== 'running') status = await runningAgain(api, waitMs);
    if (!status) return false;
    // The cached token carries the address it was issued for: ask for both again.
    tokens.clear();
    await tokens.token(true).catch(() => null);
    return true;
  };
  return () => (inflight ??= rediscover().finally(() => (inflight = null)));
}
