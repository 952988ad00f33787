/**
 * The page's end of the browser-mode transport (desktop/socket-transport.ts) against a real
 * WebSocket server: a frame of several events reaches every listener in order, and a listener
 * that throws (an injected fault) is reported without costing the other listeners or the rest
 * of the frame their events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createSocketTransport } from '../../../src/renderer/src/desktop/socket-transport';

const g = globalThis as unknown as { WebSocket?: unknown; reportError?: (e: unknown) => void };

describe('socket transport, events', () => {
  let server: WebSocketServer | null = null;
  // The transport reconnects once the server is gone, refused each time, until the file's
  // worker ends: WebSocket stays defined for it.
  afterEach(() => {
    server?.close();
  });

  it('gives each listener every event of a frame, in order, whatever one listener throws', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => server!.once('listening', r));
    const port = (server.address() as { port: number }).port;
    const subscribed = new Promise<WebSocket>((resolve) =>
      server!.on('connection', (ws) =>
        ws.on('message', (d: Buffer) => {
          if ((JSON.parse(d.toString()) as { type: string }).type === 'subscribe') resolve(ws);
        }),
      ),
    );
    g.WebSocket = WebSocket;
    const reported: unknown[] = [];
    g.reportError = (e) => reported.push(e);

    const transport = createSocketTransport(`ws://127.0.0.1:${port}/desktop-api`);
    const seen: string[] = [];
    const all = new Promise<void>((resolve) =>
      transport.subscribe('watchers:event', (p) => {
        seen.push((p as { message: string }).message);
        if (seen.length === 3) resolve();
      }),
    );
    transport.subscribe('watchers:event', (p) => {
      if ((p as { message: string }).message === 'first') throw new Error('a listener fails');
    });
    const ws = await subscribed;
    const event = (message: string) => ({ event: 'watchers:event', payload: { message } });
    ws.send(JSON.stringify({ type: 'events', events: [event('first'), event('second')] }));
    ws.send(JSON.stringify({ type: 'event', ...event('third') }));
    await all;
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('a listener fails');
  });
});
