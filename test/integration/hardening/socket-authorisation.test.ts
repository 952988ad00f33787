/**
 * Issue 24 item 1: every request on a GraphQL WebSocket is authorised as if it came over REST.
 * A real graphql-ws client over a real service; time is the service's injected clock, moved
 * forward instead of waited for.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { FIXTURE_MANIFESTS, startKit, UPDATES_QUERY, type Kit, type Update } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Pipeline = { name: string; versions: Array<{ id: number; is_latest: boolean }> };
interface Watched {
  client: Client;
  /** Resolves with the close code and reason once the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the connection_ack payload. */
  acked: Promise<Record<string, unknown> | undefined>;
}

const clockOffset = { ms: 0 };
const clock = { now: () => Date.now() + clockOffset.ms };

function watch(kit: Kit, token: string): Watched {
  let onClosed!: (c: { code: number; reason: string }) => void;
  let onAck!: (p: Record<string, unknown> | undefined) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  const acked = new Promise<Record<string, unknown> | undefined>((r) => (onAck = r));
  const client = createClient({
    url: `${kit.service.url.replace(/^http/, 'ws')}/api/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    on: {
      connected: (_socket, payload) => onAck(payload as Record<string, unknown> | undefined),
      closed: (e) => onClosed({ code: (e as CloseEvent).code, reason: String((e as CloseEvent).reason) }),
    },
    onNonLazyError: () => {},
  });
  return { client, closed, acked };
}

/** One query or mutation over the socket: its data, or its errors' codes. */
function request(client: Client, query: string, variables: Record<string, unknown> = {}) {
  return new Promise<{ data?: Record<string, unknown>; codes: string[]; closed?: number }>((resolve) => {
    let data: Record<string, unknown> | undefined;
    const codes: string[] = [];
    client.subscribe(
      { query, variables },
      {
        next: (r) => {
          data = (r.data ?? undefined) as Record<string, unknown> | undefined;
          for (const e of r.errors ?? []) codes.push(String(e.extensions?.code));
        },
        error: (e) => {
          if (Array.isArray(e))
            for (const x of e) codes.push(String((x as { extensions?: { code?: string } }).extensions?.code));
          resolve({ data, codes, closed: (e as CloseEvent).code });
        },
        complete: () => resolve({ data, codes }),
      },
    );
  });
}

const ME = '{ pipelines { id name } }';
const RUN = 'mutation ($input: RunPipelineInput) { runPipeline(input: $input) { id status } }';
const runInput = (v: number) => ({ input: { pipelineVersionId: String(v), parameters: { steps: 1 } } });
const REAUTH = 'mutation ($t: String!) { reauthenticate(token: $t) { expiresAt } }';

describe('a GraphQL WebSocket is authorised like REST, request by request', () => {
  let kit: Kit;
  let steps: number;

  const login = async (username: string) => {
    const r = await kit.api<{ token: string }>('/api/login', '', {
      body: { username, password: `${username} password 1` },
    });
    expect(r.status).toBe(200);
    return r.body.token;
  };

  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS, { clock });
    steps = (await kit.api<Pipeline[]>('/api/pipelines', kit.adminToken)).body
      .find((p) => p.name === 'Test Steps')!
      .versions.find((v) => v.is_latest)!.id;
  });
  afterAll(async () => {
    await kit.stop();
  });

  it('disabling the account closes its sockets at once', async () => {
    const user = await kit.createUser('disabled1');
    const ws = watch(kit, user.token);
    expect((await request(ws.client, ME)).codes).toEqual([]);
    const put = await kit.api(`/api/users/${user.id}`, kit.adminToken, { method: 'PUT', body: { disabled: true } });
    expect(put.status).toBe(200);
    expect(await ws.closed).toEqual({ code: 4403, reason: 'Account disabled' });
    await ws.client.dispose();
  });

  it('a right removed is missing from the next operation on the same socket', async () => {
    const user = await kit.createUser('runner1', true);
    const ws = watch(kit, user.token);
    const first = await request(ws.client, RUN, runInput(steps));
    expect(first.codes).toEqual([]);
    await kit.waitFor(user.token, Number((first.data!.runPipeline as { id: string }).id), ['completed']);
    const put = await kit.api(`/api/users/${user.id}`, kit.adminToken, {
      method: 'PUT',
      body: { can_run_pipelines: false },
    });
    expect(put.status).toBe(200);
    const second = await request(ws.client, RUN, runInput(steps));
    expect(second.codes).toEqual(['INSUFFICIENT_PERMISSIONS']);
    // The account itself is fine: the socket stays open and still answers reads.
    expect((await request(ws.client, ME)).codes).toEqual([]);
    await ws.client.dispose();
  });

  it('changing the password closes the sockets opened before it', async () => {
    const user = await kit.createUser('passwd1');
    const ws = watch(kit, user.token);
    await ws.acked;
    const changed = await kit.api('/api/me/password', user.token, {
      method: 'PUT',
      body: { current_password: 'passwd1 password 1', new_password: 'a new password 2' },
    });
    expect(changed.status).toBe(200);
    expect(await ws.closed).toEqual({ code: 4403, reason: 'Password changed' });
    await ws.client.dispose();
  });

  it('a revoked share ends the subscription with NOT_FOUND, as REST answers', async () => {
    const member = await kit.createUser('viewer1');
    const group = await kit.api<{ slug: string }>('/api/groups/', kit.adminToken, { body: { name: 'Socket Lab' } });
    const slug = group.body.slug;
    await kit.api(`/api/groups/${slug}/invite/`, kit.adminToken, {
      body: { emails: ['viewer1@lab.example'], permission: 'view' },
    });
    expect((await kit.api(`/api/groups/${slug}/accept/`, member.token, { method: 'POST' })).status).toBe(200);
    const run = await kit.run(kit.adminToken, steps, { parameters: { steps: 1000, delay_ms: 50 } });
    expect(run.status).toBe(201);
    const id = run.body.id as number;
    await kit.api(`/api/executions/${id}/share/`, kit.adminToken, { body: { group: slug, permission: 'view' } });

    const ws = watch(kit, member.token);
    const updates: Update[] = [];
    let revoking = false;
    // The execution's progress as the owner reads it just after the unshare answered.
    let progressAfterRevoke: Promise<number> | null = null;
    const ended = new Promise<{ codes: string[] }>((resolve, reject) => {
      ws.client.subscribe<{ executionUpdates: Update }>(
        { query: UPDATES_QUERY, variables: { id: String(id) } },
        {
          next: (r) => {
            if (!r.data) return reject(new Error(`an update without data: ${JSON.stringify(r.errors)}`));
            updates.push(r.data.executionUpdates);
            // Revoke once the run is visibly progressing, and only once.
            if (updates.length === 3 && !revoking) {
              revoking = true;
              progressAfterRevoke = kit
                .api(`/api/executions/${id}/share/${slug}/`, kit.adminToken, { method: 'DELETE' })
                .then(async (r) => {
                  if (r.status !== 200 && r.status !== 204) throw new Error(`unshare: ${r.status}`);
                  return (await kit.api<{ progress: number }>(`/api/executions/${id}`, kit.adminToken)).body.progress;
                });
            }
          },
          error: (e) =>
            Array.isArray(e)
              ? resolve({
                  codes: (e as Array<{ extensions?: { code?: string } }>).map((x) => String(x.extensions?.code)),
                })
              : reject(new Error(`the subscription failed otherwise: ${JSON.stringify(e)} ${String(e)}`)),
          complete: () => reject(new Error('the subscription completed instead of failing')),
        },
      );
    });
    const { codes } = await ended;
    expect(codes).toEqual(['NOT_FOUND']);
    // Events are published right after their row is written, and each is authorised as it
    // leaves: none the member received can be ahead of the state read after the unshare.
    const limit = await progressAfterRevoke!;
    expect(limit).toBeLessThan(100);
    expect(Math.max(...updates.map((u) => u.progress))).toBeLessThanOrEqual(limit);
    expect((await kit.api(`/api/executions/${id}`, member.token)).status).toBe(404);
    await kit.api(`/api/executions/${id}/cancel`, kit.adminToken, { method: 'POST' });
    await ws.client.dispose();
  });

  it('reauthenticate is for sockets: over HTTP it answers VALIDATION_ERROR', async () => {
    const r = await kit.api<{ errors?: Array<{ extensions: { code: string } }> }>('/api/graphql', kit.adminToken, {
      body: { query: REAUTH, variables: { t: kit.adminToken } },
    });
    expect(r.status).toBe(200);
    expect(r.body.errors?.map((e) => e.extensions.code)).toEqual(['VALIDATION_ERROR']);
  });

  // Last: it moves the service clock past every token issued before it.
  it('the socket ends when its access token expires, unless re-authenticated in-band', async () => {
    const user = await kit.createUser('expiry1');
    const stale = watch(kit, user.token);
    const ack = await stale.acked;
    expect(Date.parse(String(ack?.expiresAt))).toBeGreaterThan(clock.now() + 29 * 60_000);
    const kept = watch(kit, await login('expiry1'));
    await kept.acked;

    clockOffset.ms += 25 * 60_000;
    // Another account's token cannot take the socket over.
    const foreign = await request(kept.client, REAUTH, { t: kit.adminToken });
    expect(foreign.codes).toEqual(['VALIDATION_ERROR']);
    const fresh = await login('expiry1');
    const reauth = await request(kept.client, REAUTH, { t: `Bearer ${fresh}` });
    expect(reauth.codes).toEqual([]);
    const expiresAt = Date.parse((reauth.data!.reauthenticate as { expiresAt: string }).expiresAt);
    expect(expiresAt).toBeGreaterThan(clock.now() + 29 * 60_000);

    clockOffset.ms += 7 * 60_000; // 32 minutes after the first token was issued
    const late = await request(stale.client, ME);
    expect(late.data).toBeUndefined();
    expect(await stale.closed).toEqual({ code: 4403, reason: 'Access token expired' });
    expect((await request(kept.client, ME)).codes).toEqual([]);
    await stale.client.dispose();
    await kept.client.dispose();
  });
});
