import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from './helpers';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on an ephemeral port that keeps what it receives. */
async function startSmtp(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('invitations: e-mail over SMTP and the notification outbox', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let service: TestService;
  let admin: Session;
  let bob: Session;
  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    admin = await setupAdmin(service);
    bob = await addUser(service, admin, 'bob');
    await call(service, 'POST', '/api/groups/', { token: admin.token, body: { name: 'Core Facility' } });
  });
  afterAll(async () => {
    await service.stop();
    await smtp.close();
  });

  it('mails the invitee through the SMTP server and records a notification', async () => {
    const res = await call(service, 'POST', '/api/groups/core-facility/invite/', {
      token: admin.token,
      body: { emails: ['bob@lab.test', 'stranger@elsewhere.test'], permission: 'edit' },
    });
    expect(res.body).toMatchObject({ invited: ['bob@lab.test'], pending: ['stranger@elsewhere.test'] });
    await until(async () => (smtp.received.length >= 2 ? true : undefined), 'two e-mails');
    const toBob = smtp.received.find((m) => m.to.includes('bob@lab.test'))!;
    expect(toBob.raw).toMatch(/Subject: Admin invited you to the group Core Facility on Laneway/);
    expect(toBob.raw).toMatch(/with edit permission/);
    expect(smtp.received.find((m) => m.to.includes('stranger@elsewhere.test'))!.raw).toMatch(
      /Create a Laneway account/,
    );
    const notes = await until(async () => {
      const n = await call(service, 'GET', '/api/notifications', { token: bob.token });
      return n.body.items?.[0]?.mail_status === 'sent' ? n : undefined;
    }, 'mail_status sent');
    expect(notes.body).toMatchObject({ count: 1, unread_count: 1 });
    expect(notes.body.items![0]).toMatchObject({
      kind: 'group_invitation',
      data: { group: 'core-facility', permission: 'edit', invited_by: 'admin' },
      read: false,
    });
  });

  it('marks notifications read, one or all; nobody else can touch them', async () => {
    const list = await call(service, 'GET', '/api/notifications', { token: bob.token });
    const id = list.body.items![0]!.id as number;
    expect((await call(service, 'POST', `/api/notifications/${id}/read/`, { token: admin.token })).status).toBe(404);
    const read = await call(service, 'POST', `/api/notifications/${id}/read`, { token: bob.token });
    expect(read.body).toMatchObject({ id, read: true });
    const unread = await call(service, 'GET', '/api/notifications?unread=true', { token: bob.token });
    expect(unread.body).toMatchObject({ count: 0, unread_count: 0 });
    // (Re-inviting to the same group mails nothing since issue 24: another group's invitation.)
    await call(service, 'POST', '/api/groups/', { token: admin.token, body: { name: 'Second Facility' } });
    await call(service, 'POST', '/api/groups/second-facility/invite/', {
      token: admin.token,
      body: { emails: ['bob@lab.test'], permission: 'share' },
    });
    const all = await call(service, 'POST', '/api/notifications/read-all/', { token: bob.token });
    expect(all.body).toEqual({ marked: 1 });
  });

  it('still records the notification when the SMTP server is unreachable, and says so', async () => {
    const broken = await startTestService({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const root = await setupAdmin(broken);
      const carol = await addUser(broken, root, 'carol');
      await call(broken, 'POST', '/api/groups/', { token: root.token, body: { name: 'G' } });
      const res = await call(broken, 'POST', '/api/groups/g/invite/', {
        token: root.token,
        body: { emails: ['carol@lab.test'], permission: 'view' },
      });
      expect(res.status).toBe(200);
      await until(async () => {
        const n = await call(broken, 'GET', '/api/notifications', { token: carol.token });
        return n.body.items?.[0]?.mail_status === 'failed' ? true : undefined;
      }, 'mail_status failed');
    } finally {
      await broken.stop();
    }
  });

  it('without SMTP keeps the notification in the outbox only', async () => {
    const plain = await startTestService();
    try {
      const root = await setupAdmin(plain);
      const dan = await addUser(plain, root, 'dan');
      await call(plain, 'POST', '/api/groups/', { token: root.token, body: { name: 'G' } });
      await call(plain, 'POST', '/api/groups/g/invite/', {
        token: root.token,
        body: { emails: ['dan@lab.test'], permission: 'view' },
      });
      const n = await call(plain, 'GET', '/api/notifications', { token: dan.token });
      expect(n.body.items![0]).toMatchObject({ mail_status: 'not_configured', kind: 'group_invitation' });
    } finally {
      await plain.stop();
    }
  });
});
