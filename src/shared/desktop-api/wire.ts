/** Messages of the browser-mode WebSocket transport of the desktop API. */
import type { WireResult } from './client';

export type ClientMessage =
  | { type: 'invoke'; id: number; channel: string; params: unknown }
  | { type: 'subscribe'; event: string }
  | { type: 'unsubscribe'; event: string };

export type ServerMessage =
  { type: 'result'; id: number; result: WireResult<unknown> } | { type: 'event'; event: string; payload: unknown };

export const DESKTOP_WS_PATH = '/desktop-api';
