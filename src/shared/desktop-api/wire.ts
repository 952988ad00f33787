/** Messages of the browser-mode WebSocket transport of the desktop API. */
import type { WireResult } from './client';

export type ClientMessage =
  | { type: 'invoke'; id: number; channel: string; params: unknown }
  | { type: 'subscribe'; event: string }
  | { type: 'unsubscribe'; event: string };

export interface WireEvent {
  event: string;
  payload: unknown;
}

/**
 * `events`: the events of one turn of the core's event loop, in the order emitted, as one frame
 * (a plate's thousands of queue events cost a frame and a write each). A result is sent only
 * after the events emitted before it.
 */
export type ServerMessage =
  | { type: 'result'; id: number; result: WireResult<unknown> }
  | ({ type: 'event' } & WireEvent)
  | { type: 'events'; events: WireEvent[] };

export const DESKTOP_WS_PATH = '/desktop-api';
