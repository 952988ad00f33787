/**
 * The renderer's handle on the desktop core: `window.laneway` from the preload in Electron, or
 * the same API over the browser-mode WebSocket.
 */
import type { DesktopApi } from '../../../shared/desktop-api/client';
import { createSocketTransport } from './socket-transport';
import { createDesktopApi } from '../../../shared/desktop-api/client';

declare global {
  interface Window {
    laneway?: DesktopApi;
  }
}

export function connectDesktopApi(): DesktopApi {
  if (window.laneway) return window.laneway;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createDesktopApi(createSocketTransport(`${scheme}://${window.location.host}/desktop-api`));
}
