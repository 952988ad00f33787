/**
 * The Electron IPC transport of the desktop API: the only place ipcMain is used. Each call's
 * sender is checked against the app's own windows and main frame before the dispatcher parses
 * the payload; events go only to trusted windows.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { methods } from '../../shared/desktop-api/contract';
import { DESKTOP_EVENTS_CHANNEL } from '../../shared/desktop-api/ipc-channels';
import type { WireEvent } from '../../shared/desktop-api/wire';
import { createTurnBatch, type Dispatcher } from '../core/index';

function trusted(event: IpcMainInvokeEvent, windows: () => BrowserWindow[]): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  if (!frame.url.startsWith('file://')) return false;
  return windows().some((w) => !w.isDestroyed() && w.webContents.id === event.sender.id);
}

export function registerIpc(dispatcher: Dispatcher, windows: () => BrowserWindow[]): void {
  const batch = createTurnBatch<WireEvent>((events) => {
    for (const w of windows()) if (!w.isDestroyed()) w.webContents.send(DESKTOP_EVENTS_CHANNEL, events);
  });
  for (const channel of Object.keys(methods)) {
    ipcMain.handle(channel, async (event, params: unknown) => {
      if (!trusted(event, windows)) {
        return {
          ok: false,
          error: { code: 'FORBIDDEN_SENDER', message: 'IPC from an untrusted sender', retryable: false },
        };
      }
      const result = await dispatcher.dispatch(channel, params);
      // The reply and the events share the window's IPC pipe, so sending the pending events
      // now puts them ahead of the result.
      batch.flush();
      return result;
    });
  }
  dispatcher.subscribe((event, payload) => batch.push({ event, payload }));
}
