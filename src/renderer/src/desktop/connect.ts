/**
 * The renderer's handle on the desktop core: `window.laneway` from the preload in Electron, or
 * the same API over the browser-mode WebSocket. The link reports whether the desktop core is
 * reachable, so the frame can show a lost connection.
 */
import type { DesktopApi } from '../../../shared/desktop-api/client';
import { createSocketTransport } from './socket-transport';
import { createDesktopApi } from '../../../shared/desktop-api/client';

declare global {
  interface Window {
    laneway?: DesktopApi;
  }
}

/** Whether the desktop core answers; Electron's IPC never drops, the browser socket can. */
export interface DesktopLink {
  connected(): boolean;
  onChange(listener: (connected: boolean) => void): () => void;
}

/** Connects to the desktop core over the transport this shell provides. */
export function connectDesktopApi(): { api: DesktopApi; link: DesktopLink } {
  if (window.laneway) return { api: window.laneway, link: { connected: () => true, onChange: () => () => {} } };
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = createSocketTransport(`${scheme}://${window.location.host}/desktop-api`);
  return { api: createDesktopApi(transport), link: transport };
}
