/**
 * The browser-mode transport of the desktop API: one WebSocket per page carrying invoke and
 * subscribe messages to the dispatcher, and pushed events back. Malformed messages are
 * answered or dropped, never allowed to throw in the host.
 */
import type { WebSocket } from 'ws';
import { isEventName, type EventName } from '../../../shared/desktop-api/contract';
import type { ClientMessage, ServerMessage, WireEvent } from '../../../shared/desktop-api/wire';
import type { Dispatcher } from '../dispatcher';
import { createTurnBatch } from '../turn-batch';

const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

function parse(raw: string): ClientMessage | null {
  try {
    const msg = JSON.parse(raw) as ClientMessage;
    if (typeof msg !== 'object' || msg === null) return null;
    return msg;
  } catch {
    return null;
  }
}

/** Serves the desktop API on one connected socket until it closes. */
export function serveDesktopSocket(socket: WebSocket, dispatcher: Dispatcher): void {
  const subscribed = new Set<EventName>();
  const batch = createTurnBatch<WireEvent>((events) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify(events.length === 1 ? { type: 'event', ...events[0]! } : { type: 'events', events }));
  });
  const send = (msg: ServerMessage) => {
    // What happened before a call's result reaches the page before the result does.
    batch.flush();
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  };
  const unsubscribe = dispatcher.subscribe((event, payload) => {
    if (!subscribed.has(event)) return;
    batch.push({ event, payload });
  });
  socket.on('close', () => {
    unsubscribe();
    batch.dispose();
  });
  socket.on('message', (data, isBinary) => {
    const raw = isBinary ? '' : data.toString();
    if (raw.length > MAX_MESSAGE_BYTES) return socket.close(1009, 'message too big');
    const msg = parse(raw);
    if (!msg) return socket.close(1003, 'malformed message');
    if (msg.type === 'invoke' && Number.isSafeInteger(msg.id)) {
      void dispatcher.dispatch(msg.channel, msg.params).then((result) => send({ type: 'result', id: msg.id, result }));
    } else if (msg.type === 'subscribe' && isEventName(msg.event)) {
      subscribed.add(msg.event);
    } else if (msg.type === 'unsubscribe' && isEventName(msg.event)) {
      subscribed.delete(msg.event);
    }
  });
}
