/**
 * The Electron shell cannot run here (no Electron binary), so these tests mock the electron
 * module (MACHINE.md) and check what the shell and the preload ask of it: security defaults,
 * the IPC sender check, and events sent a turn's worth per message, ahead of a later result.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = new Map<string, (event: unknown, params: unknown) => Promise<unknown>>();
const created: Array<{ options: Record<string, unknown> }> = [];
const rendererHandlers = new Map<string, (event: unknown, ...args: unknown[]) => void>();
const exposed = new Map<string, unknown>();

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
    ipcRenderer: {
      on: (channel: string, fn: (event: unknown, ...args: unknown[]) => void) => rendererHandlers.set(channel, fn),
      invoke: vi.fn(),
    },
    contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.set(name, value) },
    webUtils: { getPathForFile: () => '' },
  };
});

import { createDispatcher } from '../../src/main/core/dispatcher';
import { registerIpc } from '../../src/main/shell/ipc';
import { createMainWindow, hardenContents } from '../../src/main/shell/window';
import type { DesktopApi } from '../../src/shared/desktop-api/client';
import { methods } from '../../src/shared/desktop-api/contract';
import { DESKTOP_EVENTS_CHANNEL } from '../../src/shared/desktop-api/ipc-channels';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const watcherEvent = (message: string) => ({
  watcher_id: 1,
  type: 'recovered' as const,
  path: '/runs',
  message,
  at: '2026-11-27T09:00:00.000Z',
});

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

  it("sends a turn's events as one message, and the events before a call's result ahead of it", async () => {
    const dispatcher: ReturnType<typeof createDispatcher> = createDispatcher({
      'app:version': () => {
        // A call whose work emits events, as a queue call does.
        dispatcher.emit('watchers:event', watcherEvent('during the call'));
        return { version: '0.1.0', shell: 'electron', platform: 'linux' };
      },
    });
    const send = vi.fn();
    const window = { webContents: { id: 7, send }, isDestroyed: () => false };
    const gone = { webContents: { id: 9, send: vi.fn() }, isDestroyed: () => true };
    registerIpc(dispatcher, () => [window as never, gone as never]);

    for (const m of ['first', 'second', 'third']) dispatcher.emit('watchers:event', watcherEvent(m));
    expect(send).not.toHaveBeenCalled();
    await nextTurn();
    expect(send).toHaveBeenCalledTimes(1);
    const [channel, events] = send.mock.calls[0]! as [string, Array<{ event: string; payload: { message: string } }>];
    expect(channel).toBe(DESKTOP_EVENTS_CHANNEL);
    expect(events.map((e) => [e.event, e.payload.message])).toEqual([
      ['watchers:event', 'first'],
      ['watchers:event', 'second'],
      ['watchers:event', 'third'],
    ]);

    send.mockClear();
    dispatcher.emit('watchers:event', watcherEvent('before the call'));
    const mainFrame = { url: 'file:///app/index.html' };
    const result = await handlers.get('app:version')!({ sender: { id: 7, mainFrame }, senderFrame: mainFrame }, {});
    // By the time the handler hands its result to Electron, the events are on the pipe.
    expect(result).toMatchObject({ ok: true });
    expect(send).toHaveBeenCalledTimes(1);
    expect((send.mock.calls[0]![1] as Array<{ payload: { message: string } }>).map((e) => e.payload.message)).toEqual([
      'before the call',
      'during the call',
    ]);
    expect(gone.webContents.send).not.toHaveBeenCalled();
  });

  it("the preload hands each batch's events to the page's listeners, in order, past one that throws", async () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (err: unknown) => reported.push(err));
    try {
      await import('../../src/preload/index');
      const api = exposed.get('laneway') as DesktopApi;
      const deliver = rendererHandlers.get(DESKTOP_EVENTS_CHANNEL)!;
      const seen: string[] = [];
      const boom = new Error('a screen failed');
      const off = api.on('watchers:event', (p) => seen.push(p.message));
      api.on('watchers:event', () => {
        throw boom;
      });
      api.on('runs:changed', () => seen.push('a run'));
      deliver({}, [
        { event: 'watchers:event', payload: watcherEvent('one') },
        { event: 'uploads:progress', payload: {} },
        { event: 'watchers:event', payload: watcherEvent('two') },
      ]);
      expect(seen).toEqual(['one', 'two']);
      expect(reported).toEqual([boom, boom]);
      off();
      deliver({}, [{ event: 'watchers:event', payload: watcherEvent('three') }]);
      expect(seen).toEqual(['one', 'two']);
      // A message that is not a batch is dropped, not thrown on.
      deliver({}, { event: 'runs:changed', payload: {} });
      deliver({}, null);
      expect(seen).toEqual(['one', 'two']);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
