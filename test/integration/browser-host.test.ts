import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserHost, type BrowserHost } from '../../src/main/core/browser/browser-host';
import { createDesktopCore, type DesktopCore } from '../../src/main/core/desktop-core';
import { childServiceLauncher } from '../../src/main/core/child-service-launcher';
import { APP_VERSION } from '../../src/shared/version';
import { tempDir } from '../helpers/temp';

/** A raw GET, so that the Host header can be forged. */
function rawGet(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(url: string, headers: Record<string, string> = {}) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function call(ws: WebSocket, id: number, channel: string, params: unknown) {
  return new Promise<Record<string, unknown>>((resolve) => {
    const onMessage = (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { type: string; id?: number };
      if (msg.type === 'result' && msg.id === id) {
        ws.off('message', onMessage);
        resolve(msg as Record<string, unknown>);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'invoke', id, channel, params }));
  });
}

describe('browser mode host: token, Host check and the desktop API over WebSocket', () => {
  const dir = tempDir();
  let core: DesktopCore;
  let host: BrowserHost;

  beforeAll(async () => {
    const renderer = join(dir.path, 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Laneway</title>');
    writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir.path, 'secret.txt'), 'do not serve');
    core = createDesktopCore({
      serviceDataDir: join(dir.path, 'service'),
      stateDir: dir.path,
      launcher: childServiceLauncher(),
      shell: 'browser',
      log: () => {},
    });
    await core.start();
    host = await startBrowserHost({ rendererDir: renderer, dispatcher: core.dispatcher, csp: core.rendererCsp });
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await core.stop();
    dir.remove();
  });

  it('serves the UI with the token and sets an HttpOnly SameSite=Strict cookie', async () => {
    const res = await rawGet(host.port, `/?token=${host.token}`, { host: `127.0.0.1:${host.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Laneway');
    expect(String(res.headers['set-cookie'])).toMatch(/laneway_token=.+; HttpOnly; SameSite=Strict/);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const asset = await rawGet(host.port, '/assets/app.js', {
      host: `localhost:${host.port}`,
      cookie: `laneway_token=${host.token}`,
    });
    expect(asset.status).toBe(200);
  });

  it('lets the page connect to loopback and the configured remote services only, as a profile is added', async () => {
    const connectSrc = async () => {
      const res = await rawGet(host.port, `/?token=${host.token}`, { host: `127.0.0.1:${host.port}` });
      return /connect-src ([^;]*)/.exec(String(res.headers['content-security-policy']))![1]!.split(' ');
    };
    const before = await connectSrc();
    expect(before).toEqual(expect.arrayContaining(["'self'", 'http://127.0.0.1:*', 'ws://127.0.0.1:*']));
    // No scheme-wide sources: any host over http(s) or ws(s) is not allowed.
    for (const any of ['http:', 'https:', 'ws:', 'wss:', '*']) expect(before).not.toContain(any);
    // Only sources CSP's grammar has: Chromium drops an IPv6 literal with a console error.
    for (const source of before) expect(source).not.toContain('[');
    expect(before.join(' ')).not.toContain('lab.example.org');
    core.sessions!.profiles.add({ name: 'Core facility', kind: 'remote', url: 'https://lab.example.org:8443/' });
    const after = await connectSrc();
    expect(after).toEqual(expect.arrayContaining(['https://lab.example.org:8443', 'wss://lab.example.org:8443']));
  });

  it('refuses requests without the token, with a wrong token, or with a foreign Host header', async () => {
    expect((await rawGet(host.port, '/', { host: `127.0.0.1:${host.port}` })).status).toBe(403);
    expect((await rawGet(host.port, '/?token=nope', { host: `127.0.0.1:${host.port}` })).status).toBe(403);
    expect((await rawGet(host.port, `/?token=${host.token}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await rawGet(host.port, `/?token=${host.token}`, { host: `127.0.0.1:${host.port + 1}` })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await rawGet(host.port, `${path}?token=${host.token}`, { host: `127.0.0.1:${host.port}` });
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('do not serve');
    }
  });

  it('carries app:version and service:status over the WebSocket', async () => {
    const ws = await openSocket(`ws://127.0.0.1:${host.port}/desktop-api?token=${host.token}`);
    const version = await call(ws, 1, 'app:version', {});
    expect(version.result).toEqual({
      ok: true,
      value: {
        version: APP_VERSION,
        shell: 'browser',
        platform: process.platform,
        data_dir: join(dir.path, 'service'),
        state_dir: dir.path,
      },
    });
    const status = (await call(ws, 2, 'service:status', {})) as {
      result: { ok: boolean; value: { state: string; url: string } };
    };
    expect(status.result.ok).toBe(true);
    expect(status.result.value.state).toBe('running');
    const health = await fetch(`${status.result.value.url}/api/health`);
    expect(health.status).toBe(200);
    ws.close();
  });

  it('sends the events of one turn as one frame, in order, and a result only after them', async () => {
    const ws = await openSocket(`ws://127.0.0.1:${host.port}/desktop-api?token=${host.token}`);
    const frames: Array<{ type: string; events?: Array<{ event: string; payload: { message: string } }> }> = [];
    ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as (typeof frames)[number]));
    ws.send(JSON.stringify({ type: 'subscribe', event: 'watchers:event' }));
    // Messages are handled in order: once this answers, the subscription holds.
    await call(ws, 1, 'app:version', {});
    frames.length = 0;
    const event = (message: string) => ({
      watcher_id: 1,
      type: 'recovered' as const,
      path: '/runs',
      message,
      at: '2026-11-27T09:00:00.000Z',
    });
    // A plate's queue emits many events in one turn; a call answered right after them.
    for (const m of ['first', 'second', 'third']) core.dispatcher.emit('watchers:event', event(m));
    const answered = call(ws, 2, 'app:version', {});
    core.dispatcher.emit('watchers:event', event('fourth'));
    await answered;
    expect(frames.map((f) => f.type)).toEqual(['events', 'result']);
    expect(frames[0]!.events!.map((e) => [e.event, e.payload.message])).toEqual([
      ['watchers:event', 'first'],
      ['watchers:event', 'second'],
      ['watchers:event', 'third'],
      ['watchers:event', 'fourth'],
    ]);
    // One event alone is the plain event frame.
    const alone = new Promise<unknown>((resolve) =>
      ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()))),
    );
    core.dispatcher.emit('watchers:event', event('alone'));
    expect(await alone).toMatchObject({ type: 'event', event: 'watchers:event', payload: { message: 'alone' } });
    ws.close();
  });

  it('answers unknown methods and bad payloads as error data', async () => {
    const ws = await openSocket(`ws://127.0.0.1:${host.port}/desktop-api?token=${host.token}`);
    const unknown = (await call(ws, 1, 'fs:read', { path: '/etc/passwd' })) as {
      result: { ok: boolean; error: { code: string } };
    };
    expect(unknown.result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const bad = (await call(ws, 2, 'service:status', { extra: 1 })) as {
      result: { ok: boolean; error: { code: string } };
    };
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('not json');
    expect(await closed).toBe(1003);
  });

  it('refuses WebSocket upgrades without the token or from a foreign origin', async () => {
    await expect(openSocket(`ws://127.0.0.1:${host.port}/desktop-api`)).rejects.toThrow(/403/);
    await expect(
      openSocket(`ws://127.0.0.1:${host.port}/desktop-api?token=${host.token}`, { origin: 'http://evil.example' }),
    ).rejects.toThrow(/403/);
  });
});
