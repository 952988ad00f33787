/**
 * The browser-mode transport: the desktop API over one WebSocket, reconnecting with backoff
 * when it drops. Calls made while disconnected wait for the socket; subscriptions are renewed
 * on every reconnect.
 */
import type { DesktopTransport, WireResult } from '../../../shared/desktop-api/client';
import type { EventName, MethodName } from '../../../shared/desktop-api/contract';
import { createEventListeners } from '../../../shared/desktop-api/event-listeners';
import type { ClientMessage, ServerMessage } from '../../../shared/desktop-api/wire';

export interface SocketTransport extends DesktopTransport {
  connected(): boolean;
  onChange(listener: (connected: boolean) => void): () => void;
}

/** Opens the socket and keeps it open; `onChange` reports every drop and reconnect. */
export function createSocketTransport(url: string): SocketTransport {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let attempt = 0;
  const pending = new Map<number, (r: WireResult<unknown>) => void>();
  const outbox: ClientMessage[] = [];
  const linkListeners = new Set<(connected: boolean) => void>();
  let wasOpen = false;
  const report = (open: boolean) => {
    if (open === wasOpen) return;
    wasOpen = open;
    for (const l of linkListeners) l(open);
  };

  const listeners = createEventListeners((err) => reportError(err));

  const send = (msg: ClientMessage) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
    else outbox.push(msg);
  };

  const connect = () => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      for (const event of listeners.names()) ws.send(JSON.stringify({ type: 'subscribe', event }));
      for (const msg of outbox.splice(0)) ws.send(JSON.stringify(msg));
      report(true);
    };
    ws.onmessage = (e: MessageEvent<string>) => {
      const msg = JSON.parse(e.data) as ServerMessage;
      if (msg.type === 'result') {
        pending.get(msg.id)?.(msg.result);
        pending.delete(msg.id);
      } else if (msg.type === 'event') {
        listeners.deliver(msg.event, msg.payload);
      } else if (msg.type === 'events') {
        listeners.deliverAll(msg.events);
      }
    };
    ws.onclose = () => {
      socket = null;
      report(false);
      // Calls in flight are lost with the socket: answer them as retryable network errors.
      for (const [id, resolve] of pending) {
        resolve({ ok: false, error: { code: 'NETWORK', message: 'Lost the connection to Laneway', retryable: true } });
        pending.delete(id);
      }
      const delay = Math.min(10_000, 250 * 2 ** attempt++);
      setTimeout(connect, delay);
    };
  };
  connect();

  return {
    connected: () => socket?.readyState === WebSocket.OPEN,
    onChange(listener) {
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
    invoke(channel: MethodName, params: unknown) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        send({ type: 'invoke', id, channel, params });
      });
    },
    subscribe(event: EventName, listener: (payload: unknown) => void) {
      const added = listeners.add(event, listener);
      if (added.first) send({ type: 'subscribe', event });
      return () => {
        if (added.remove()) send({ type: 'unsubscribe', event });
      };
    },
  };
}
