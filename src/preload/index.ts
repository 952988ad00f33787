/**
 * The bridge: exposes the desktop API contract on `window.laneway`, and on `window.lanewayFiles`
 * the one helper outside it (a dropped file's path). Each
 * method is one `ipcRenderer.invoke` on its contract channel; event subscriptions return an
 * unsubscribe function.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createDesktopApi, type WireResult } from '../shared/desktop-api/client';
import type { EventName, MethodName } from '../shared/desktop-api/contract';
import { DESKTOP_EVENT_CHANNEL } from '../shared/desktop-api/ipc-channels';
import { lanewayFilesOver } from '../shared/desktop-api/dropped-files';

const api = createDesktopApi({
  invoke: (channel: MethodName, params: unknown) => ipcRenderer.invoke(channel, params) as Promise<WireResult<unknown>>,
  subscribe(event: EventName, listener: (payload: unknown) => void) {
    const handler = (_e: unknown, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(DESKTOP_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(DESKTOP_EVENT_CHANNEL, handler);
    };
  },
});

contextBridge.exposeInMainWorld('laneway', api);
contextBridge.exposeInMainWorld('lanewayFiles', lanewayFilesOver<File>(webUtils));
