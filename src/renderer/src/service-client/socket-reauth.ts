/**
 * Keeps a graphql-ws socket open past its access token's expiry: the service's connection_ack
 * carries `expiresAt`, and a minute before it the `reauthenticate` mutation sends a fresh token
 * on the same socket (docs/service/graphql-sockets.md). Should that fail, the service closes
 * the socket at expiry (4403) and graphql-ws reconnects with fresh connectionParams instead.
 */
import type { Client } from 'graphql-ws';

/** Time as the caller keeps it (tests drive it; the app uses the wall clock). */
export interface ReauthTimer {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const wallClockTimer: ReauthTimer = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How long before the expiry the fresh token is sent (covers clock skew and a slow refresh). */
export const REAUTH_EARLY_MS = 60_000;

const REAUTH = 'mutation Reauthenticate($token: String!) { reauthenticate(token: $token) { expiresAt } }';

export interface SocketReauth {
  /** The socket's client, once created. */
  attach(client: Client): void;
  /** graphql-ws `on.connected`: the ack payload names the expiry. */
  connected(ackPayload: unknown): void;
  stop(): void;
}

/** Re-authenticates with `freshToken()` before each expiry the service announces. */
export function socketReauth(freshToken: () => Promise<string | null>, timer = wallClockTimer): SocketReauth {
  let client: Client | null = null;
  let handle: unknown = null;
  let stopped = false;
  const schedule = (expiresAt: unknown) => {
    if (handle !== null) timer.clear(handle);
    handle = null;
    const at = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
    if (stopped || !client || !Number.isFinite(at)) return;
    handle = timer.set(() => void renew(), Math.max(1_000, at - timer.now() - REAUTH_EARLY_MS));
  };
  const renew = async () => {
    handle = null;
    const token = await freshToken().catch(() => null);
    if (!token || stopped || !client) return;
    client.subscribe<{ reauthenticate: { expiresAt: string | null } }>(
      { query: REAUTH, variables: { token: `Bearer ${token}` } },
      {
        next: (r) => schedule(r.data?.reauthenticate?.expiresAt),
        // Refused: the socket ends at expiry and reconnects with a fresh token.
        error: () => {},
        complete: () => {},
      },
    );
  };
  return {
    attach: (c) => (client = c),
    connected: (payload) => schedule((payload as { expiresAt?: unknown } | undefined)?.expiresAt),
    stop: () => {
      stopped = true;
      if (handle !== null) timer.clear(handle);
      handle = null;
    },
  };
}
