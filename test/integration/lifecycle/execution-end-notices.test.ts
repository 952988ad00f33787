import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '../../../src/service/webhooks/webhook-signature';
import { eventually } from '../../helpers/eventually';
import { closedPort } from '../../helpers/closed-port';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from '../identity/helpers';
import { LIFECYCLE_MANIFESTS } from './lifecycle-fixtures';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The first retry's delay in this test; the next ones double it. */
const RETRY_MS = 150;

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A real HTTP receiver on loopback: /ok answers 204, /flaky 500 twice then 200, /down always 503. */
async function startReceiver(): Promise<{ url: string; hits: Hit[]; close(): Promise<void> }> {
  const hits: Hit[] = [];
  const server: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push({ path, headers: req.headers, body, at: Date.now() });
      const seen = hits.filter((h) => h.path === path).length;
      if (path.startsWith('/ok')) res.writeHead(204).end();
      else if (path.startsWith('/flaky')) res.writeHead(seen <= 2 ? 500 : 200).end('thanks');
      else if (path.startsWith('/moved')) res.writeHead(302, { location: '/ok' }).end();
      else res.writeHead(503).end('down for maintenance');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type Delivery = {
  id: number;
  event: string;
  status: string;
  attempts: number;
  attempt_log: Array<{ at: string; status_code: number | null; error: string | null }>;
  payload: { event: string; execution: Record<string, unknown> };
};

describe('when an execution ends: notification, e-mail and signed webhooks with retries', () => {
  let service: TestService;
  let smtp: SmtpSink;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  let steps: number;

  const run = async (who: Session, parameters: Record<string, unknown>) => {
    const r = await call(service, 'POST', `/api/pipelines/versions/${steps}/run`, {
      token: who.token,
      body: { parameters },
    });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const ended = (who: Session, id: number) =>
    eventually(async () => {
      const e = (await call(service, 'GET', `/api/executions/${id}`, { token: who.token })).body;
      return ['completed', 'failed', 'cancelled'].includes(e.status as string) ? e : undefined;
    }, `execution ${id} to end`);
  const hook = async (who: Session, body: Record<string, unknown>) => {
    const r = await call(service, 'POST', '/api/webhooks', { token: who.token, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: number; secret: string };
  };
  const deliveries = async (who: Session, id: number) =>
    (await call(service, 'GET', `/api/webhooks/${id}/deliveries`, { token: who.token })).body
      .items as unknown as Delivery[];
  const settled = (who: Session, id: number, n = 1) =>
    eventually(async () => {
      const d = await deliveries(who, id);
      return d.length >= n && d.every((x) => x.status !== 'pending') ? d : undefined;
    }, `deliveries of webhook ${id}`);

  beforeAll(async () => {
    process.env.LANEWAY_PIPELINES_DIR = LIFECYCLE_MANIFESTS;
    process.env.LANEWAY_WEBHOOK_RETRY_MS = String(RETRY_MS);
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    service = await startTestService({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    admin = await setupAdmin(service);
    // The receivers run on loopback, which the webhook target policy refuses by default.
    const allow = await call(service, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { webhook_allow_list: ['127.0.0.1'] },
    });
    expect(allow.status).toBe(200);
    alice = await addUser(service, admin, 'alice', { can_run_pipelines: true });
    bob = await addUser(service, admin, 'bob', { can_run_pipelines: true });
    const list = (await call(service, 'GET', '/api/pipelines', { token: alice.token })).body as unknown as Array<{
      name: string;
      versions: Array<{ id: number; version: string }>;
    }>;
    steps = list.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!.id;
  });
  afterAll(async () => {
    await service.stop();
    await receiver.close();
    await smtp.close();
    delete process.env.LANEWAY_PIPELINES_DIR;
    delete process.env.LANEWAY_WEBHOOK_RETRY_MS;
  });

  it('tells the owner of a completed run: notification, e-mail, and a signed POST to their webhook', async () => {
    const ok = await hook(alice, { url: `${receiver.url}/ok/alice`, description: 'lab chat' });
    expect(ok.secret).toMatch(/^[0-9a-f]{64}$/);
    const id = await run(alice, { steps: 2 });
    await ended(alice, id);
    const notes = await eventually(async () => {
      const n = (await call(service, 'GET', '/api/notifications', { token: alice.token })).body.items as Array<
        Record<string, unknown>
      >;
      return n.find((x) => x.kind === 'execution_ended') ? n : undefined;
    }, 'the notification');
    const note = notes.find((x) => x.kind === 'execution_ended')!;
    expect(note).toMatchObject({
      subject: 'Execution Test Steps 2.0.0 completed',
      data: { execution_id: id, status: 'completed', pipeline: 'Test Steps', version: '2.0.0', error: null },
      read: false,
    });
    const mail = await eventually(
      () => smtp.received.find((m) => m.raw.includes('Test Steps 2.0.0 completed')),
      'the e-mail',
    );
    expect(mail.to).toEqual(['alice@lab.test']);
    // bob, who has no webhook and ran nothing, was told nothing.
    expect((await call(service, 'GET', '/api/notifications', { token: bob.token })).body.count).toBe(0);

    const [d] = await settled(alice, ok.id);
    expect(d).toMatchObject({ event: 'execution.completed', status: 'delivered', attempts: 1 });
    expect(d!.attempt_log[0]).toMatchObject({ status_code: 204, error: null });
    const hit = receiver.hits.find((h) => h.path === '/ok/alice')!;
    expect(hit.headers['x-laneway-event']).toBe('execution.completed');
    expect(hit.headers['x-laneway-delivery']).toBe(String(d!.id));
    // The delivery id and the attempt's time are inside the signed body (replay protection).
    expect(JSON.parse(hit.body)).toMatchObject({
      delivery_id: d!.id,
      timestamp: Number(hit.headers['x-laneway-timestamp']),
    });
    expect(verifySignature(ok.secret, hit.body, hit.headers['x-laneway-signature-256'] as string)).toBe(true);
    expect(verifySignature('another secret entirely', hit.body, hit.headers['x-laneway-signature-256'] as string)).toBe(
      false,
    );
    expect(JSON.parse(hit.body)).toMatchObject({
      event: 'execution.completed',
      execution: { id, status: 'completed', pipeline: { name: 'Test Steps' }, pipeline_version: { version: '2.0.0' } },
    });
  });

  it('retries a failing receiver with exponential backoff until it answers 2xx; the log shows each attempt', async () => {
    const flaky = await hook(bob, { url: `${receiver.url}/flaky/bob`, events: ['execution.failed'] });
    const id = await run(bob, { steps: 1, fail: true });
    expect((await ended(bob, id)).status).toBe('failed');
    const [d] = await settled(bob, flaky.id);
    expect(d).toMatchObject({ event: 'execution.failed', status: 'delivered', attempts: 3 });
    // The owner's log says "failed" without the receiver's answer (issue 24: no port scanner).
    expect(d!.attempt_log.map((a) => [a.status_code, a.error])).toEqual([
      [null, 'failed'],
      [null, 'failed'],
      [200, null],
    ]);
    const hits = receiver.hits.filter((h) => h.path === '/flaky/bob');
    expect(hits).toHaveLength(3);
    // One delivery id, each attempt signed with its own timestamp, and each wait twice the one before.
    expect(new Set(hits.map((h) => (JSON.parse(h.body) as { delivery_id: number }).delivery_id)).size).toBe(1);
    for (const h of hits) {
      expect(verifySignature(flaky.secret, h.body, h.headers['x-laneway-signature-256'] as string)).toBe(true);
    }
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(RETRY_MS);
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(2 * RETRY_MS);
    expect(JSON.parse(hits[0]!.body).execution).toMatchObject({ id, status: 'failed', error: expect.any(String) });
  });

  it('gives up after 6 attempts on a receiver that is down or refuses connections, and says why', async () => {
    const carol = await addUser(service, admin, 'carol', { can_run_pipelines: true });
    const down = await hook(carol, { url: `${receiver.url}/down/carol` });
    const refused = await hook(carol, { url: `http://127.0.0.1:${await closedPort()}/hook` });
    const moved = await hook(carol, { url: `${receiver.url}/moved/carol` });
    const id = await run(carol, { steps: 1 });
    await ended(carol, id);
    const [a] = await settled(carol, down.id);
    expect(a).toMatchObject({ status: 'failed', attempts: 6 });
    expect(a!.attempt_log.every((x) => x.status_code === null && x.error === 'failed')).toBe(true);
    const gaps = a!.attempt_log.slice(1).map((x, i) => Date.parse(x.at) - Date.parse(a!.attempt_log[i]!.at));
    gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(RETRY_MS * 2 ** i - 5));
    const [b] = await settled(carol, refused.id);
    expect(b).toMatchObject({ status: 'failed', attempts: 6 });
    // A closed port and a live service that answers 503 look the same to the hook's owner.
    expect(b!.attempt_log).toEqual(a!.attempt_log.map((x, i) => ({ ...x, at: b!.attempt_log[i]!.at })));
    // A redirect is not followed with the signed body: it is a failure the receiver must fix.
    const [c] = await settled(carol, moved.id);
    expect(c).toMatchObject({ status: 'failed', attempts: 6 });
    expect(c!.attempt_log[0]).toMatchObject({ status_code: null, error: 'failed' });
    expect(receiver.hits.filter((h) => h.path === '/ok')).toHaveLength(0);
  });

  it('sends only the events a webhook asked for, and nothing while it is paused; cancelled runs too', async () => {
    const dave = await addUser(service, admin, 'dave', { can_run_pipelines: true });
    const failedOnly = await hook(dave, { url: `${receiver.url}/ok/dave-failed`, events: ['execution.failed'] });
    const paused = await hook(dave, { url: `${receiver.url}/ok/dave-paused`, active: false });
    const cancelled = await hook(dave, { url: `${receiver.url}/ok/dave-cancelled`, events: ['execution.cancelled'] });
    await ended(dave, await run(dave, { steps: 1 }));
    const slow = await run(dave, { steps: 1000, delay_ms: 500 });
    await call(service, 'POST', `/api/executions/${slow}/cancel/`, { token: dave.token, body: {} });
    const [d] = await settled(dave, cancelled.id);
    expect(d).toMatchObject({ event: 'execution.cancelled', status: 'delivered' });
    expect(JSON.parse(receiver.hits.find((h) => h.path === '/ok/dave-cancelled')!.body).execution).toMatchObject({
      id: slow,
      status: 'cancelled',
    });
    expect(await deliveries(dave, failedOnly.id)).toEqual([]);
    expect(await deliveries(dave, paused.id)).toEqual([]);
    const subjects = (
      (await call(service, 'GET', '/api/notifications', { token: dave.token })).body.items as Array<{ subject: string }>
    ).map((n) => n.subject);
    expect(subjects).toEqual(['Execution Test Steps 2.0.0 was cancelled', 'Execution Test Steps 2.0.0 completed']);
  });

  it('keeps webhooks private and validates them; the secret is shown once; deleting drops the log', async () => {
    const erin = await addUser(service, admin, 'erin');
    const h = await hook(erin, { url: `${receiver.url}/ok/erin`, secret: 'erin-secret-0123456789' });
    expect(h.secret).toBe('erin-secret-0123456789');
    const read = await call(service, 'GET', `/api/webhooks/${h.id}`, { token: erin.token });
    expect(read.body).not.toHaveProperty('secret');
    expect((await call(service, 'GET', '/api/webhooks', { token: erin.token })).body).toMatchObject({ count: 1 });
    for (const [method, path] of [
      ['GET', `/api/webhooks/${h.id}`],
      ['PATCH', `/api/webhooks/${h.id}`],
      ['DELETE', `/api/webhooks/${h.id}`],
      ['GET', `/api/webhooks/${h.id}/deliveries`],
    ] as const) {
      const r = await call(service, method, path, {
        token: alice.token,
        ...(method === 'PATCH' ? { body: { active: false } } : {}),
      });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe('NOT_FOUND');
    }
    expect((await call(service, 'GET', '/api/webhooks')).status).toBe(401);
    for (const body of [
      {},
      { url: 'ftp://example.org/hook' },
      { url: 'javascript:alert(1)' },
      { url: 'not a url' },
      { url: `${receiver.url}/x`, events: ['execution.exploded'] },
      { url: `${receiver.url}/x`, events: [] },
      { url: `${receiver.url}/x`, secret: 'short' },
      { url: `${receiver.url}/x`, owner: 'admin' },
      { url: 'http://' + 'a'.repeat(2100) + '.test/' },
    ]) {
      const r = await call(service, 'POST', '/api/webhooks', { token: erin.token, body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_ERROR');
    }
    const changed = await call(service, 'PATCH', `/api/webhooks/${h.id}`, {
      token: erin.token,
      body: { url: `${receiver.url}/ok/erin2`, events: ['execution.failed'], active: false },
    });
    expect(changed.body).toMatchObject({
      url: `${receiver.url}/ok/erin2`,
      events: ['execution.failed'],
      active: false,
    });
    expect(
      (
        await call(service, 'PATCH', `/api/webhooks/${h.id}`, {
          token: erin.token,
          body: { url: 'file:///etc/passwd' },
        })
      ).status,
    ).toBe(400);
    expect((await call(service, 'DELETE', `/api/webhooks/${h.id}`, { token: erin.token })).status).toBe(204);
    expect((await call(service, 'GET', `/api/webhooks/${h.id}/deliveries`, { token: erin.token })).status).toBe(404);
    const audit = (await call(service, 'GET', '/api/audit?resource_kind=webhook&user=erin', { token: admin.token }))
      .body.items as Array<{ action: string }>;
    // The change of URL, events and state is audited too (issue 24).
    expect(audit.map((e) => e.action)).toEqual(['deleted', 'updated', 'created']);
  });

  it('refuses loopback targets however written unless the admin allows them (issue 24 item 3)', async () => {
    const frank = await addUser(service, admin, 'frank', { can_run_pipelines: true });
    const port = new URL(receiver.url).port;
    const targets = [
      `http://127.0.0.1:${port}/ok/frank-v4`,
      `http://0x7f000001:${port}/ok/frank-hex`,
      `http://[::1]:${port}/ok/frank-v6`,
      `http://localhost:${port}/ok/frank-name`,
      `http://127.0.0.2:${port}/ok/frank-other`,
    ];
    const hooks = [];
    for (const url of targets) hooks.push(await hook(frank, { url }));
    expect(
      (await call(service, 'PUT', '/api/admin/settings', { token: admin.token, body: { webhook_allow_list: [] } }))
        .status,
    ).toBe(200);
    await ended(frank, await run(frank, { steps: 1 }));
    for (const h of hooks) {
      const [d] = await settled(frank, h.id);
      expect(d).toMatchObject({ status: 'failed', attempts: 6 });
      expect(d!.attempt_log.every((x) => x.status_code === null && x.error === 'failed')).toBe(true);
    }
    expect(receiver.hits.filter((h) => h.path.startsWith('/ok/frank'))).toEqual([]);
    // An allow-list entry as a CIDR range lets the lab's own receivers through again.
    const allow = await call(service, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { webhook_allow_list: ['127.0.0.0/8', '::1', 'localhost'] },
    });
    expect(allow.status).toBe(200);
    await ended(frank, await run(frank, { steps: 1 }));
    // (The receiver listens on 127.0.0.1 only: the spellings of that address reach it.)
    for (const h of [hooks[0]!, hooks[1]!]) {
      const ds = await settled(frank, h.id, 2);
      expect(ds.find((d) => d.status === 'delivered')).toBeDefined();
    }
  });

  it("the starter of a group's run, removed from the group before it ends, is told nothing (issue 24 item 7)", async () => {
    const hana = await addUser(service, admin, 'hana', { can_run_pipelines: true });
    const ivan = await addUser(service, admin, 'ivan', { can_run_pipelines: true });
    const group = await call(service, 'POST', '/api/groups/', { token: hana.token, body: { name: 'Core facility' } });
    const slug = group.body.slug as string;
    await call(service, 'POST', `/api/groups/${slug}/invite/`, {
      token: hana.token,
      body: { emails: ['ivan@lab.test'], permission: 'edit' },
    });
    expect((await call(service, 'POST', `/api/groups/${slug}/accept/`, { token: ivan.token, body: {} })).status).toBe(
      200,
    );
    const h = await hook(ivan, { url: `${receiver.url}/ok/ivan` });
    const started = await call(service, 'POST', `/api/pipelines/versions/${steps}/run`, {
      token: ivan.token,
      body: { parameters: { steps: 50, delay_ms: 40 }, group_owner: slug },
    });
    expect(started.status).toBe(201);
    const groupRun = started.body.id as number;
    // Removed while the group's run is still running (its 50 steps take 2 s at least).
    const removed = await call(service, 'POST', `/api/groups/${slug}/remove/`, {
      token: hana.token,
      body: { username: 'ivan' },
    });
    expect(removed.status).toBe(200);
    expect((await ended(hana, groupRun)).status).toBe('completed');
    // A run of his own afterwards reaches the same webhook: only that one is there.
    const own = await run(ivan, { steps: 1 });
    await ended(ivan, own);
    const ds = await settled(ivan, h.id);
    expect(ds.map((d) => d.payload.execution.id)).toEqual([own]);
    const told = receiver.hits
      .filter((x) => x.path === '/ok/ivan')
      .map((x) => (JSON.parse(x.body) as { execution: { id: number } }).execution.id);
    expect(told).toEqual([own]);
    const notes = (await call(service, 'GET', '/api/notifications', { token: ivan.token })).body.items as Array<{
      kind: string;
      data: { execution_id?: number };
    }>;
    expect(notes.filter((n) => n.kind === 'execution_ended').map((n) => n.data.execution_id)).toEqual([own]);
  });

  it('a disabled account receives no more payloads, even on retries (issue 24 item 7)', async () => {
    const gina = await addUser(service, admin, 'gina', { can_run_pipelines: true });
    const down = await hook(gina, { url: `${receiver.url}/down/gina` });
    await ended(gina, await run(gina, { steps: 1 }));
    await eventually(() => receiver.hits.find((h) => h.path === '/down/gina'), 'the first attempt');
    const user = await call(service, 'PUT', `/api/users/${gina.id}`, {
      token: admin.token,
      body: { disabled: true },
    });
    expect(user.status).toBe(200);
    // Gina can no longer read her log: the service's own record says when the delivery ended.
    const row = await eventually(() => {
      const r = service.ctx.db
        .prepare('SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = ?')
        .get(down.id) as { status: string; attempts: number } | undefined;
      return r && r.status !== 'pending' ? r : undefined;
    }, 'the delivery to end');
    expect(row.status).toBe('failed');
    expect(row.attempts).toBeLessThan(6);
    // Every attempt after the one that was under way when she was disabled was not sent.
    expect(receiver.hits.filter((h) => h.path === '/down/gina').length).toBeLessThanOrEqual(2);
  });
});
