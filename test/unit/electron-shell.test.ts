/**
 * The Electron shell cannot run here (no Electron binary), so these tests mock the electron
 * module (MACHINE.md) and check what the shell asks of it: security defaults and the IPC
 * sender check.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = new Map<string, (event: unknown, params: unknown) => Promise<unknown>>();
const created: Array<{ options: Record<string, unknown> }> = [];

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = { id: 7, send: vi.fn() };
    constructor(readonly options: Record<string, unknown>) {
      created.push({ options });
    }
    once() {}
    loadURL() {
      return Promise.resolve();
    }
    isDestroyed() {
      return false;
    }
  }
  return {
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, fn: (e: unknown, p: unknown) => Promise<unknown>) => handlers.set(channel, fn),
    },
    session: { defaultSession: { webRequest: { onHeadersReceived: vi.fn() }, setPermissionRequestHandler: vi.fn() } },
    shell: { openExternal: vi.fn() },
  };
});

import { createDispatcher } from '../../src/main/core/dispatcher';
import { registerIpc } from '../../src/main/shell/ipc';
import { createMainWindow, hardenContents } from '../../src/main/shell/window';
import { methods } from '../../src/shared/desktop-api/contract';

describe('electron shell', () => {
  beforeEach(() => {
    handlers.clear();
    created.length = 0;
  });

  it('creates the window with context isolation, sandbox and no Node integration', () => {
    createMainWindow('/app/preload.cjs', '/app/index.html', () => "default-src 'self'");
    const prefs = created[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
  });

  it("sets the core's CSP, asked at each load, on every response", async () => {
    const { session } = await import('electron');
    const onHeaders = vi.mocked(session.defaultSession.webRequest.onHeadersReceived);
    let policy = 'policy one';
    createMainWindow('/app/preload.cjs', '/app/index.html', () => policy);
    const listener = onHeaders.mock.calls.at(-1)![0] as unknown as (
      details: { responseHeaders: Record<string, string[]> },
      cb: (r: { responseHeaders: Record<string, string[]> }) => void,
    ) => void;
    const seen: string[][] = [];
    const load = () =>
      listener({ responseHeaders: { 'X-Other': ['kept'] } }, (r) =>
        seen.push(r.responseHeaders['Content-Security-Policy']!),
      );
    load();
    policy = 'policy two';
    load();
    expect(seen).toEqual([['policy one'], ['policy two']]);
  });

  it('denies navigation, webviews and new windows', () => {
    const listeners = new Map<string, (e: { preventDefault(): void }) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | null = null;
    hardenContents({
      on: (name: string, fn: (e: { preventDefault(): void }) => void) => listeners.set(name, fn),
      setWindowOpenHandler: (fn: (d: { url: string }) => { action: string }) => (openHandler = fn),
    } as never);
    const prevent = vi.fn();
    listeners.get('will-navigate')!({ preventDefault: prevent });
    listeners.get('will-attach-webview')!({ preventDefault: prevent });
    expect(prevent).toHaveBeenCalledTimes(2);
    expect(openHandler!({ url: 'https://example.org' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
  });

  it('registers one handler per contract method and refuses untrusted senders', async () => {
    const dispatcher = createDispatcher({
      'app:version': () => ({ version: '0.1.0', shell: 'electron', platform: 'linux' }),
      'service:status': () => ({
        mode: 'embedded',
        state: 'running',
        url: null,
        version: null,
        error: null,
        since: '',
      }),
    });
    const window = { webContents: { id: 7, send: vi.fn() }, isDestroyed: () => false };
    registerIpc(dispatcher, () => [window as never]);
    expect([...handlers.keys()].sort()).toEqual(Object.keys(methods).sort());

    const mainFrame = { url: 'file:///app/index.html' };
    const trusted = { sender: { id: 7, mainFrame }, senderFrame: mainFrame };
    expect(await handlers.get('app:version')!(trusted, {})).toMatchObject({ ok: true });

    const otherWindow = { sender: { id: 8, mainFrame }, senderFrame: mainFrame };
    const subFrame = { sender: { id: 7, mainFrame }, senderFrame: { url: 'file:///app/index.html' } };
    const remotePage = { sender: { id: 7, mainFrame: { url: 'https://evil.example' } }, senderFrame: null };
    for (const event of [otherWindow, subFrame, remotePage]) {
      expect(await handlers.get('app:version')!(event, {})).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN_SENDER' },
      });
    }
    const badPayload = await handlers.get('service:status')!(trusted, { nope: true });
    expect(badPayload).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});
