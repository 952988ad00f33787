/**
 * The desktop's socket keeper (renderer `socket-reauth.ts`, used by the execution feed) against
 * a real service: it re-authenticates in-band before the announced expiry, so the same socket
 * still answers after the first token's end. Time is the service's injected clock; the keeper's
 * timer is driven by hand (the one fake), reading that same clock.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { REAUTH_EARLY_MS, socketReauth } from '../../../src/renderer/src/service-client/socket-reauth';
import { startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const offset = { ms: 0 };
const clock = { now: () => Date.now() + offset.ms };

describe('the desktop keeps its GraphQL socket across token expiries', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit(undefined, { clock });
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('sends a fresh token a minute before each expiry, and the socket outlives the first token', async () => {
    const user = await kit.createUser('keeper1');
    const logins: string[] = [];
    const fresh = async () => {
      const r = await kit.api<{ token: string }>('/api/login', '', {
        body: { username: 'keeper1', password: 'keeper1 password 1' },
      });
      logins.push(r.body.token);
      return r.body.token;
    };
    const timers: Array<{ fn: () => void; ms: number }> = [];
    let scheduled: () => void = () => {};
    const reauth = socketReauth(fresh, {
      now: clock.now,
      set: (fn, ms) => {
        timers.push({ fn, ms });
        scheduled();
        return timers.length;
      },
      clear: () => {},
    });
    const nextTimer = (count: number) =>
      new Promise<{ fn: () => void; ms: number }>((resolve) => {
        scheduled = () => timers.length >= count && resolve(timers[count - 1]!);
        scheduled();
      });
    let closed: number | null = null;
    const client = createClient({
      url: `${kit.service.url.replace(/^http/, 'ws')}/api/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${user.token}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      on: {
        connected: (_s, payload) => reauth.connected(payload),
        closed: (e) => (closed = (e as CloseEvent).code),
      },
    });
    reauth.attach(client);
    const query = () =>
      new Promise<string[]>((resolve) => {
        const codes: string[] = [];
        client.subscribe(
          { query: '{ pipelines { id } }' },
          {
            next: (r) => codes.push(...(r.errors ?? []).map((e) => String(e.extensions?.code))),
            error: () => resolve(['socket error']),
            complete: () => resolve(codes),
          },
        );
      });

    const first = await nextTimer(1);
    // Thirty minutes, less the minute early (a little less again: the clock moved meanwhile).
    expect(first.ms).toBeGreaterThan(28 * 60_000);
    expect(first.ms).toBeLessThanOrEqual(30 * 60_000 - REAUTH_EARLY_MS);
    offset.ms += first.ms;
    first.fn();
    const second = await nextTimer(2);
    expect(logins).toHaveLength(1);
    expect(second.ms).toBeGreaterThan(28 * 60_000);

    offset.ms += 5 * 60_000; // past the first token's expiry
    expect(await query()).toEqual([]);
    expect(closed).toBeNull();
    reauth.stop();
    await client.dispose();
  });
});
